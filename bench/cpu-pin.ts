// Keeps the browser's figures about the browser. An operator's browser runs on another machine
// than the Berth server and the engines it watches; here all of them share a few cores, and a
// stats pass of the server or of dockerd landing during a live message was counted as the
// page's own main-thread time (runs of the same build differed by half). With 2 or more cores,
// while a benchmark measures the page, Chromium has the last core to itself and the server and
// the engines' daemons the others; the server's own figures are taken with every core.
// BENCH_PIN=0 turns it off.
import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

const CHROMIUM = '/usr/bin/chromium';
const cores = availableParallelism();
const enabled = process.env.BENCH_PIN !== '0' && cores >= 2 && hasTaskset();
const browserCore = String(cores - 1);
const otherCores = cores === 2 ? '0' : `0-${cores - 2}`;
const allCores = `0-${cores - 1}`;
/** The engines' daemons, by process name (at most 15 characters: the kernel's comm). */
const ENGINE_DAEMONS = ['dockerd', 'containerd', 'containerd-shim'];

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Said once by each benchmark that pins, so its figures say how they were taken. */
export const pinningNote = enabled
  ? `while the page is measured, the browser has core ${browserCore} and the server and engines ${otherCores} (BENCH_PIN=0: off)`
  : 'no CPU pinning';

/** Whether this benchmark moved the others off the browser's core (`keepOffBrowserCore`). */
let pinned = false;

/**
 * The Chromium to launch: after `keepOffBrowserCore`, a wrapper that starts it on the
 * browser's core; otherwise Chromium itself, with every core (benchmarks that do not pin).
 */
export function chromiumExecutable(): string {
  if (!pinned) return CHROMIUM;
  const wrapper = join(tmpdir(), 'berth-bench-chromium.sh');
  writeFileSync(wrapper, `#!/bin/sh\nexec taskset -c ${browserCore} ${CHROMIUM} "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}

function daemonPids(): string[] {
  return ENGINE_DAEMONS.flatMap((name) => {
    try {
      return execFileSync('pgrep', ['-x', name], { encoding: 'utf8' }).split('\n');
    } catch {
      return []; // none running
    }
  }).filter(Boolean);
}

function setCores(pids: string[], list: string): void {
  for (const pid of pids) {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', list, pid], { stdio: 'ignore' });
    } catch {
      // gone meanwhile, or not ours to move
    }
  }
}

/**
 * Moves the engines' daemons and the given processes (the Berth server) off the browser's
 * core; the function returned (called at exit too) gives them every core back, as the
 * daemons are shared with the tests.
 */
export function keepOffBrowserCore(pids: (number | undefined)[]): () => void {
  if (!enabled) return () => undefined;
  pinned = true;
  const moved = [...daemonPids(), ...pids.filter((p) => p !== undefined).map(String)];
  setCores(moved, otherCores);
  const restore = () => {
    pinned = false;
    setCores(moved, allCores);
  };
  process.once('exit', restore);
  return restore;
}
