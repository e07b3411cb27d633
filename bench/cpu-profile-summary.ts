// Sums a V8 CPU profile (`node --cpu-prof`, a .cpuprofile file) by where its time went: self
// time by function and by file (or package: every file under node_modules/<name> counts as
// <name>, every node: built-in as itself), so two runs of the same server (say, Berth with its
// hosts over TCP and behind agents) can be compared line by line.
// Usage: node bench/cpu-profile-summary.ts <file.cpuprofile> [top=25] [lastSeconds]
// With lastSeconds, only the samples of the profile's last seconds count (a bench's measured
// window, when the process was stopped right after it).
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives, short: a package name, a node: module, or a path in the repo. */
export function placeOf(url: string): string {
  if (url === '') return '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] ?? url;
  if (url.startsWith('node:')) return url;
  const repo = /\/packages\/(.+)$/.exec(url);
  return repo ? (repo[1] ?? url) : url.replace(/^file:\/\//, '');
}

export interface ProfileSummary {
  totalMs: number;
  /** Time in samples that were not idle, program or garbage collection. */
  busyMs: number;
  byFunction: Map<string, number>;
  byPlace: Map<string, number>;
}

export function summarize(profile: Profile, lastSeconds = Infinity): ProfileSummary {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const from = profile.endTime - lastSeconds * 1e6;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at >= from) self.set(id, (self.get(id) ?? 0) + delta / 1000);
  });
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let busyMs = 0;
  for (const [id, ms] of self) {
    const frame = nodes.get(id)?.callFrame;
    if (frame === undefined) continue;
    const name = frame.functionName === '' ? '(anonymous)' : frame.functionName;
    const place = name.startsWith('(') && frame.url === '' ? name : placeOf(frame.url);
    if (name !== '(idle)') busyMs += ms;
    const key = `${name} ${place}${frame.url === '' ? '' : `:${frame.lineNumber + 1}`}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
  }
  const totalMs = Math.min(profile.endTime - profile.startTime, lastSeconds * 1e6) / 1000;
  return { totalMs, busyMs, byFunction, byPlace };
}

function print(title: string, m: Map<string, number>, busyMs: number, top: number): void {
  console.log(`\n${title}`);
  for (const [key, ms] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(
      `${ms.toFixed(0).padStart(8)} ms ${((ms / busyMs) * 100).toFixed(1).padStart(5)} %  ${key}`,
    );
}

if (import.meta.main) {
  const file = process.argv[2];
  if (file === undefined) throw new Error('Usage: node bench/cpu-profile-summary.ts <file> [top]');
  const top = Number(process.argv[3] ?? 25);
  const last = process.argv[4] === undefined ? Infinity : Number(process.argv[4]);
  const s = summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile, last);
  console.log(
    `${file}: ${(s.totalMs / 1000).toFixed(1)} s profiled, ${(s.busyMs / 1000).toFixed(2)} s busy`,
  );
  print('self time by file or package (% of busy)', s.byPlace, s.busyMs, top);
  print('self time by function (% of busy)', s.byFunction, s.busyMs, top);
}
