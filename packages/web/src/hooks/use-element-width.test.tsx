import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useElementWidth } from './use-element-width';

/** jsdom lays nothing out: elements report the width the test gives them. */
let reportedWidth = 0;
let observed: ((entries: { contentRect: { width: number } }[]) => void) | null = null;

beforeEach(() => {
  reportedWidth = 0;
  observed = null;
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => reportedWidth);
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(callback: typeof observed) {
        observed = callback;
      }
      observe() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function Measured({ onRender }: { onRender: (width: number | null) => void }) {
  const { ref, width } = useElementWidth();
  onRender(width);
  return <div ref={ref}>{width === null ? 'measuring' : `width ${width}`}</div>;
}

describe('useElementWidth', () => {
  it('has the width by the end of the first commit, without waiting for ResizeObserver', () => {
    reportedWidth = 1180;
    const widths: (number | null)[] = [];
    const view = render(<Measured onRender={(w) => widths.push(w)} />);
    // No ResizeObserver callback has run: the width came from the element as it attached.
    expect(view.container.textContent).toBe('width 1180');
    expect(widths).toEqual([null, 1180]);
  });

  it('follows later size changes through ResizeObserver', () => {
    reportedWidth = 800;
    const view = render(<Measured onRender={() => undefined} />);
    act(() => observed?.([{ contentRect: { width: 640.4 } }]));
    expect(view.container.textContent).toBe('width 640');
  });
});
