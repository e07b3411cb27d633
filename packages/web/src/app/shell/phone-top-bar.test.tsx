import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alertStatsQueryOptions } from '@/lib/queries';
import { PhoneTopBar } from './phone-top-bar';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The bar at `path` with the alert figures already read (no request leaves the test). */
function shown(path: string, open: number | null, onMenu = () => undefined) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  if (open !== null)
    client.setQueryData(alertStatsQueryOptions().queryKey, {
      by_state: { open, snoozed: 0, resolved: 0 },
      by_severity: { critical: open, error: 0, warning: 0, info: 0 },
    });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <PhoneTopBar onMenu={onMenu} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the phone top bar', () => {
  it('names the screen and counts the open alerts on the bell, a link to the alerts', () => {
    shown('/alerts/rules', 3);
    expect(screen.getByTestId('phone-title').textContent).toBe('Alert Rules');
    const bell = screen.getByRole('link', { name: 'Alerts: 3 open' });
    expect(bell.getAttribute('href')).toBe('/alerts');
    expect(screen.getByTestId('alert-bell-count').textContent).toBe('3');
  });

  it('shows no count without open alerts or before the figures are read, and caps it at 99+', () => {
    shown('/', 0);
    expect(screen.queryByTestId('alert-bell-count')).toBeNull();
    expect(screen.getByTestId('phone-title').textContent).toBe('Dashboard');
    cleanup();
    // Figures not read yet: their request is still on its way.
    vi.stubGlobal('fetch', () => new Promise(() => undefined));
    shown('/hosts', null);
    expect(screen.getByRole('link', { name: 'Alerts: 0 open' })).toBeTruthy();
    cleanup();
    shown('/hosts', 250);
    expect(screen.getByTestId('alert-bell-count').textContent).toBe('99+');
  });

  it('opens the navigation from its menu button', () => {
    const onMenu = vi.fn();
    shown('/containers', 0, onMenu);
    fireEvent.click(screen.getByRole('button', { name: 'Open navigation' }));
    expect(onMenu).toHaveBeenCalledOnce();
  });
});
