import { clsx, type ClassValue } from 'clsx';

// tailwind-merge builds its class maps on its first call (~16 ms on the machine of issue 16)
// and weighs ~10 KB: neither belongs before the first paint. Until it is set up, `cn` joins
// classes without merging them, which gives the same result wherever the classes joined do
// not conflict: true of the first screen's components (login form, session skeleton). Every
// screen after it waits for `cnReady` (app/router.tsx), so it renders with merging.
let merge: ((classes: string) => string) | null = null;
let loading: Promise<void> | null = null;

/** Loads and sets up tailwind-merge (once); resolves when `cn` merges. */
export function cnReady(): Promise<void> {
  loading ??= import('tailwind-merge').then(({ twMerge }) => {
    twMerge('px-1 px-2'); // builds the class maps now, not inside a render
    merge = twMerge;
  });
  return loading;
}

/** Joins class names, letting later Tailwind utilities win over earlier ones. */
export function cn(...inputs: ClassValue[]): string {
  const classes = clsx(inputs);
  return merge === null ? classes : merge(classes);
}
