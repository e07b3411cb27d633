import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
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

/** Which other server modules each module imports (types included: they shape its design). */
function moduleGraph(): Map<string, Set<string>> {
  const dir = resolve(ROOT, 'packages/server/src/modules');
  const graph = new Map<string, Set<string>>();
  for (const mod of readdirSync(dir, { withFileTypes: true })) {
    if (!mod.isDirectory()) continue;
    const uses = new Set<string>();
    const files = readdirSync(join(dir, mod.name), { recursive: true, encoding: 'utf8' });
    for (const file of files) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const path = join(dir, mod.name, file);
      const text = readFileSync(path, 'utf8');
      for (const m of text.matchAll(/from '(\.[^']+)'/g)) {
        const target = relative(dir, resolve(dirname(path), m[1] ?? '')).split(sep);
        const other = target[0];
        if (target.length > 1 && other !== undefined && other !== '..' && other !== mod.name)
          uses.add(other);
      }
    }
    graph.set(mod.name, uses);
  }
  return graph;
}

/** Every cycle's modules, found by depth-first search (each reported once per start). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const visit = (path: string[]) => {
    const last = path.at(-1) ?? '';
    for (const next of graph.get(last) ?? []) {
      if (next === path[0]) found.push([...path, next]);
      else if (!path.includes(next) && next > (path[0] ?? '')) visit([...path, next]);
    }
  };
  for (const mod of graph.keys()) visit([mod]);
  return found;
}

describe('server modules', () => {
  it('import each other in one direction only: no circle of modules', () => {
    const graph = moduleGraph();
    expect(graph.get('container-view')?.has('monitor')).toBe(true); // the graph is read
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
  });
});
