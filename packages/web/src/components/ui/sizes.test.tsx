import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Button } from './button';
import { Dialog } from './dialog';
import { CONTROL_HEIGHTS, Input } from './input';
import { Label } from './label';
import { Select } from './select';

// `cn` does not merge classes (lib/cn.ts), so each size or width a caller may choose is a
// prop, and no choice of props may give a component two conflicting classes. The test
// setup throws on a conflict (src/test/setup.ts).
afterEach(cleanup);

const controlSizes = Object.keys(CONTROL_HEIGHTS) as (keyof typeof CONTROL_HEIGHTS)[];

describe('our components take their size from props, without conflicting classes', () => {
  it('every button variant in every size', () => {
    for (const variant of ['primary', 'secondary', 'ghost', 'danger'] as const) {
      for (const size of ['xs', 'sm', 'md', 'icon', 'touch'] as const) {
        render(<Button variant={variant} size={size} className="ml-auto" />);
      }
    }
    expect(document.querySelectorAll('button')).toHaveLength(20);
  });

  it('inputs and selects in every height, inputs full width or sized by their class', () => {
    for (const size of controlSizes) {
      render(<Input size={size} className="pl-9" />);
      render(<Input size={size} fullWidth={false} className="w-24" />);
      render(<Select size={size} className="w-full" />);
    }
    const heights = [...document.querySelectorAll('input')].map((i) => i.className.split(' ')[0]);
    expect(heights).toEqual(['h-8', 'h-8', 'h-9', 'h-9', 'h-10', 'h-10', 'h-11', 'h-11']);
  });

  it('labels above or beside their control', () => {
    render(<Label>Above</Label>);
    render(<Label inline>Beside</Label>);
    expect(document.querySelectorAll('label')[1]?.className).not.toContain('mb-1.5');
  });

  it('dialogs in every width', () => {
    for (const size of ['md', 'lg', 'xl', '5xl', 'screen'] as const) {
      render(
        <Dialog open onOpenChange={() => undefined} title={size} size={size} className="flex">
          {size}
        </Dialog>,
      );
    }
    expect(document.querySelectorAll('[role="dialog"]')).toHaveLength(5);
  });

  it('a class that overrides a size fails the test', () => {
    expect(() => render(<Input className="h-8" />)).toThrow(/Conflicting classes: h-10/);
    expect(() =>
      render(
        <Dialog open onOpenChange={() => undefined} title="x" className="max-w-lg">
          x
        </Dialog>,
      ),
    ).toThrow(/max-w-md/);
  });
});
