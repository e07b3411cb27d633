import { describe, expect, it } from 'vitest';
import type { ContainerSnapshot } from '../monitor/index.js';
import { dependencyConditions, waitForDependencies } from './dependency-wait.js';

const snap = (s: Partial<ContainerSnapshot>) =>
  ({ name: 'db-1', state: 'running', health: null, exitCode: null, ...s }) as ContainerSnapshot;

describe('waiting for dependencies before a start', () => {
  it('reads each dependency and its condition', () => {
    expect(
      dependencyConditions('db:service_healthy:true,init:service_completed_successfully:false,x'),
    ).toEqual([
      { service: 'db', condition: 'service_healthy' },
      { service: 'init', condition: 'service_completed_successfully' },
      { service: 'x', condition: 'service_started' },
    ]);
  });

  it('needs nothing for service_started, and waits until a healthy one is healthy', async () => {
    expect(
      await waitForDependencies({
        dependsOn: 'db:service_started:false',
        containersOf: () => [snap({ state: 'exited' })],
      }),
    ).toBeNull();
    let health: ContainerSnapshot['health'] = 'starting';
    setTimeout(() => (health = 'healthy'), 30);
    expect(
      await waitForDependencies({
        dependsOn: 'db:service_healthy:false',
        containersOf: () => [snap({ health })],
        pollMs: 5,
      }),
    ).toBeNull();
  });

  it('gives up with the reason after its timeout', async () => {
    expect(
      await waitForDependencies({
        dependsOn: 'db:service_healthy:false,init:service_completed_successfully:false',
        containersOf: (s) =>
          s === 'db'
            ? [snap({ health: 'healthy' })]
            : [snap({ name: 'init-1', state: 'exited', exitCode: 1 })],
        timeoutMs: 20,
        pollMs: 5,
      }),
    ).toBe('init-1 has not completed after 0 s');
  });
});
