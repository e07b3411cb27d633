// Prints one closing line, "N passed, N failed", over the vitest and Playwright JSON reports.
// Exits non-zero when a report is missing or unreadable, so a run that tested nothing fails.
import { readFileSync } from 'node:fs';

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

function vitestCounts(path: string): Counts {
  const r = JSON.parse(readFileSync(path, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  return {
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: r.numPendingTests + r.numTodoTests,
  };
}

function playwrightCounts(path: string): Counts {
  const r = JSON.parse(readFileSync(path, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  };
  return {
    passed: r.stats.expected + r.stats.flaky,
    failed: r.stats.unexpected,
    skipped: r.stats.skipped,
  };
}

const [vitestPath, playwrightPath] = process.argv.slice(2);
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
let broken = false;
for (const [name, path, read] of [
  ['vitest', vitestPath, vitestCounts],
  ['playwright', playwrightPath, playwrightCounts],
] as const) {
  try {
    if (path === undefined) throw new Error('no report path');
    const c = read(path);
    console.log(`${name}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
    total.passed += c.passed;
    total.failed += c.failed;
    total.skipped += c.skipped;
  } catch (err) {
    console.log(`${name}: no report (${String(err)})`);
    broken = true;
  }
}
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(broken || total.failed > 0 || total.passed === 0 ? 1 : 0);
