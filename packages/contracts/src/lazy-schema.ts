/** Every operation a proxy can trap: each builds the value first. */
const TRAPS = [
  'get',
  'set',
  'has',
  'deleteProperty',
  'ownKeys',
  'getOwnPropertyDescriptor',
  'defineProperty',
  'getPrototypeOf',
  'setPrototypeOf',
  'isExtensible',
  'preventExtensions',
] as const;

/**
 * A schema (or an object of schemas) built on its first use instead of when its module loads.
 * Building zod schemas is costly (each carries its methods): all of the contracts took ~50 ms
 * on the browser's main thread before the dashboard's first render, which needs a handful.
 * A schema that nothing uses is never built, and one that is, once, when first touched.
 *
 * The proxy's target is filled with the built schema's own properties and prototype on first
 * use (the same `_zod` internals and methods, which close over the built schema), and then the
 * traps are removed from the handler, so later operations go straight to the target.
 * Annotated so a bundler drops the schemas a build never reads.
 */
/* @__NO_SIDE_EFFECTS__ */
export function lazySchema<T extends object>(build: () => T): T {
  const target = {} as T;
  const handler: Partial<Record<(typeof TRAPS)[number], unknown>> = {};
  const fill = () => {
    for (const trap of TRAPS) handler[trap] = undefined; // an undefined trap forwards to the target
    const built = build();
    Object.setPrototypeOf(target, Reflect.getPrototypeOf(built));
    Object.defineProperties(target, Object.getOwnPropertyDescriptors(built));
  };
  for (const trap of TRAPS) {
    handler[trap] = (...args: unknown[]) => {
      fill();
      return (Reflect[trap] as (...a: unknown[]) => unknown)(...args);
    };
  }
  return new Proxy(target, handler as ProxyHandler<T>);
}
