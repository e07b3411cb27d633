import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProgressPanel, type Layers, type Stage } from './updates-progress';

const stage = (name: string, message: string): Stage => ({
  host_id: 'h1',
  container_id: 'aaaaaaaaaaaa',
  stage: name,
  progress: 50,
  message,
});
const layers = (summary: string, overall: number): Layers => ({
  host_id: 'h1',
  container_id: 'aaaaaaaaaaaa',
  overall_progress: overall,
  layers: [],
  total_layers: 0,
  remaining_layers: 0,
  summary,
  speed_mbps: null,
});

afterEach(cleanup);

const panel = (s: Stage, l: Layers | null) =>
  render(<ProgressPanel stage={s} layers={l} open onToggle={() => undefined} />);
/** The line under the stage: the layer list's toggle. */
const detail = () =>
  screen.getByTestId('update-progress').querySelector('button')?.textContent ?? null;

describe('the update progress detail line', () => {
  it('shows the pull while it runs', () => {
    panel(stage('pulling', 'Pulling image web:1.1'), layers('Starting pull...', 0));
    expect(detail()).toBe('Starting pull...');
  });

  it('does not keep a mid-pull line through the later stages', () => {
    panel(stage('creating', 'Creating new container'), layers('Starting pull...', 0));
    expect(screen.getByTestId('update-progress-message').textContent).toBe(
      'Creating new container',
    );
    expect(detail()).toBeNull();
  });

  it('keeps the pull’s final figures after it', () => {
    panel(
      stage('verifying', 'Waiting for container to be healthy'),
      layers('Pull complete (image already present)', 100),
    );
    expect(detail()).toBe('Pull complete (image already present)');
  });
});
