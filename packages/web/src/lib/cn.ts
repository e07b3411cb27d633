import { clsx, type ClassValue } from 'clsx';

// `cn` joins classes and does not merge conflicting Tailwind utilities: tailwind-merge cost
// ~90 ms of main thread (traced) and 10 KB before a signed-in load's first render. What a
// caller may vary in one of our components (a height, a width) is a prop of that component
// instead (Input `size`, Dialog `size`…), so no class string needs merging. In development,
// every string is checked (lib/cn-conflicts.ts), and a test fails on a conflict.
let check: ((classes: string) => void) | null = null;

/** Development only: has `onClasses` see every class string `cn` returns. */
export function checkClasses(onClasses: (classes: string) => void): void {
  check = onClasses;
}

/** Joins class names, skipping falsy ones. Conflicting utilities are a bug: see above. */
export function cn(...inputs: ClassValue[]): string {
  const classes = clsx(inputs);
  check?.(classes);
  return classes;
}
