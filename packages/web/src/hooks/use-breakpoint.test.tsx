import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { breakpointOf, useBreakpoint } from './use-breakpoint';

/** A window whose width a test sets: matchMedia answers max-width queries against it. */
function fakeWindow(initial: number) {
  let width = initial;
  const listeners = new Set<() => void>();
  vi.stubGlobal('matchMedia', (query: string) => {
    const max = Number(/max-width:\s*([\d.]+)px/.exec(query)?.[1] ?? Infinity);
    return {
      matches: width <= max,
      media: query,
      onchange: null,
      addEventListener: (_: string, fn: () => void) => listeners.add(fn),
      removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    } as unknown as MediaQueryList;
  });
  return {
    resize(next: number) {
      width = next;
      for (const fn of [...listeners]) fn();
    },
    listening: () => listeners.size,
  };
}

function Shows() {
  return <span data-testid="bp">{useBreakpoint()}</span>;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('breakpointOf', () => {
  it('cuts at 768 and 1024 px', () => {
    expect(breakpointOf(360)).toBe('phone');
    expect(breakpointOf(767)).toBe('phone');
    expect(breakpointOf(767.5)).toBe('phone');
    expect(breakpointOf(768)).toBe('tablet');
    expect(breakpointOf(1023)).toBe('tablet');
    expect(breakpointOf(1023.99)).toBe('desktop');
    expect(breakpointOf(1024)).toBe('desktop');
    expect(breakpointOf(1440)).toBe('desktop');
  });
});

describe('useBreakpoint', () => {
  it('follows the window across both cuts and stops listening when unmounted', () => {
    const win = fakeWindow(390);
    const { getByTestId, unmount } = render(<Shows />);
    expect(getByTestId('bp').textContent).toBe('phone');
    act(() => win.resize(800));
    expect(getByTestId('bp').textContent).toBe('tablet');
    act(() => win.resize(1440));
    expect(getByTestId('bp').textContent).toBe('desktop');
    act(() => win.resize(767));
    expect(getByTestId('bp').textContent).toBe('phone');
    expect(win.listening()).toBeGreaterThan(0);
    unmount();
    expect(win.listening()).toBe(0);
  });

  it('agrees with breakpointOf at the edges', () => {
    for (const width of [767, 768, 1023, 1024]) {
      fakeWindow(width);
      const { getByTestId } = render(<Shows />);
      expect(getByTestId('bp').textContent).toBe(breakpointOf(width));
      cleanup();
    }
  });
});
