import { config } from 'zod';

// In a browser, Berth's CSP has no 'unsafe-eval': zod's probe for `new Function` (its fast
// object parsers) fails anyway and is reported as a violation. Skip it there; the server keeps
// the compiled parsers. Imported first by index.ts, before any schema is built.
if ('document' in globalThis) config({ jitless: true });
