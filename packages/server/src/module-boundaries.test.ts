import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const THROUGH_INDEX = "Server modules talk through each other's index.ts";

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The messages of the repo's lint config for `code` written in the file at `path`. */
async function lintAs(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, path) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

describe("the lint config's module zones", () => {
  it.each([
    ['packages/server/src/modules/alerts/alerts.service.ts', '../monitor/fleet.js'],
    ['packages/server/src/modules/alerts/engine/evaluator.ts', '../../monitor/fleet.js'],
    [
      'packages/server/src/modules/notifications/channels/webhook.ts',
      '../../alerts/rules.store.js',
    ],
  ])('refuses %s importing %s, another module’s internals', async (path, target) => {
    const messages = await lintAs(path, `import { x } from '${target}';\nexport const y = x;\n`);
    expect(messages.some((m) => m.includes(THROUGH_INDEX))).toBe(true);
  });

  it.each([
    ['packages/server/src/modules/alerts/engine/evaluator.ts', '../../monitor/index.js'],
    ['packages/server/src/modules/alerts/engine/evaluator.ts', '../rules.store.js'],
    ['packages/server/src/modules/alerts/engine/evaluator.ts', '../../../platform/live-hub.js'],
    ['packages/server/src/modules/alerts/alerts.service.ts', './engine/evaluator.js'],
  ])('lets %s import %s', async (path, target) => {
    const messages = await lintAs(path, `import { x } from '${target}';\nexport const y = x;\n`);
    expect(messages).toEqual([]);
  });
});
