import type { Container } from '@berth/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliver } from '@/test/fake-live';
import { PowerButtons } from './power-buttons';

vi.mock('@/lib/live/live-provider', () => import('@/test/fake-live'));

const web = { host_id: 'h1', id: 'aaaaaaaaaaaa', name: 'web', state: 'running' } as Container;
const progress = (container_id: string, stage: string) => {
  act(() => {
    deliver({
      type: 'container_update_progress',
      data: { host_id: 'h1', container_id, stage, progress: 50, message: stage },
    });
  });
};

afterEach(cleanup);

describe('the power buttons while the container is being updated', () => {
  it('wait from the first stage of its update to the last, and ignore other containers', () => {
    const client = new QueryClient();
    const shown = (c: Container) => (
      <QueryClientProvider client={client}>
        <PowerButtons container={c} variant="dialog" />
      </QueryClientProvider>
    );
    const { rerender } = render(shown(web));
    const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });
    const stop = () => button('Stop');
    expect(stop().disabled).toBe(false);
    progress('bbbbbbbbbbbb', 'pulling');
    expect(stop().disabled).toBe(false);
    progress('aaaaaaaaaaaa', 'pulling');
    expect(stop().disabled).toBe(true);
    expect(stop().title).toBe('Container is being updated');
    expect(button('Restart').disabled).toBe(true);
    // The same buttons shown for another container (the drawer moves on) are its own.
    rerender(shown({ ...web, id: 'cccccccccccc' }));
    expect(stop().disabled).toBe(false);
    rerender(shown(web));
    expect(stop().disabled).toBe(true);
    progress('aaaaaaaaaaaa', 'rolled_back');
    expect(stop().disabled).toBe(false);
  });
});
