import { twMerge } from 'tailwind-merge';

/**
 * The classes in `classes` that a later class overrides: two heights, two widths, two text
 * sizes. Tailwind's stylesheet, not their order in the attribute, decides which one shows, so
 * a component must never get both (lib/cn.ts). Development and tests only.
 */
export function overriddenClasses(classes: string): string[] {
  const kept = new Set(twMerge(classes).split(' '));
  return classes.split(' ').filter((c) => c !== '' && !kept.has(c));
}

/** Warns in the console about a class string with conflicting utilities. */
export function warnOnConflict(classes: string): void {
  const overridden = overriddenClasses(classes);
  if (overridden.length > 0) {
    console.warn(`Conflicting classes: ${overridden.join(' ')} overridden in "${classes}"`);
  }
}
