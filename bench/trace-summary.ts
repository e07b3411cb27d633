// Sums a Chromium trace's renderer main-thread events by kind: what a page spent its time on
// (script, style, layout, paint, parsing) while tracing ran. Used by bench/dashboard with
// BENCH_TRACE=1.
import { readFileSync } from 'node:fs';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** Top-level kinds worth telling apart; nested events are counted inside their parent. */
const KINDS = new Map<string, string>([
  ['EvaluateScript', 'script: evaluate'],
  ['v8.compile', 'script: compile'],
  ['v8.compileModule', 'script: compile'],
  ['v8.evaluateModule', 'script: evaluate'],
  ['FunctionCall', 'script: callbacks'],
  ['TimerFire', 'script: callbacks'],
  ['FireAnimationFrame', 'script: callbacks'],
  ['EventDispatch', 'script: callbacks'],
  ['v8.run', 'script: callbacks'],
  ['RunMicrotasks', 'script: microtasks'],
  ['ParseHTML', 'parse HTML'],
  ['ParseAuthorStyleSheet', 'parse CSS'],
  ['UpdateLayoutTree', 'style'],
  ['Layout', 'layout'],
  ['PrePaint', 'paint'],
  ['Paint', 'paint'],
  ['Layerize', 'paint'],
  ['Commit', 'paint'],
  ['MajorGC', 'GC'],
  ['MinorGC', 'GC'],
  ['V8.GC_MC_BACKGROUND_MARKING', 'GC'],
]);

/** Milliseconds by kind on the page's renderer main thread (the busiest one in the trace). */
export function summarizeTrace(path: string): Map<string, number> {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as
    { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(raw) ? raw : raw.traceEvents;
  const mains = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}/${e.tid}`),
  );
  const busy = new Map<string, number>();
  for (const e of events) {
    const thread = `${e.pid}/${e.tid}`;
    if (e.name === 'RunTask' && e.ph === 'X' && mains.has(thread))
      busy.set(thread, (busy.get(thread) ?? 0) + (e.dur ?? 0));
  }
  const main = [...busy].sort((a, b) => b[1] - a[1])[0]?.[0];
  const totals = new Map<string, number>();
  // Only outermost events of a known kind: a nested one is already inside its parent.
  let openUntil = 0;
  const sorted = events
    .filter((e) => `${e.pid}/${e.tid}` === main && e.ph === 'X')
    .sort((a, b) => a.ts - b.ts);
  for (const e of sorted) {
    if (e.name === 'RunTask') {
      totals.set('tasks (all)', (totals.get('tasks (all)') ?? 0) + (e.dur ?? 0) / 1000);
      continue;
    }
    const kind = KINDS.get(e.name);
    if (kind === undefined || e.ts < openUntil) continue;
    openUntil = e.ts + (e.dur ?? 0);
    totals.set(kind, (totals.get(kind) ?? 0) + (e.dur ?? 0) / 1000);
  }
  return totals;
}
