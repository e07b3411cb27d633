import { readFileSync } from 'node:fs';

/** The product version from the server's package.json (src/ and dist/ sit at the same depth). */
export function readVersion(): string {
  const pkg = JSON.parse(
    readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
  ) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}
