// Prometheus's text exposition format (version 0.0.4), written by hand for the series read at
// scrape time: a thousand containers' label sets are built once per scrape and reused by every
// family, which prom-client's per-series label hashing cannot do (bench/integrations).

export type MetricType = 'gauge' | 'counter';

/** A label value: backslash, double quote and line feed escaped. */
export const escapeLabelValue = (v: string): string =>
  /[\\"\n]/.test(v) ? v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') : v;

const escapeHelp = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

/**
 * `{a="x",b="y"}` from pairs, or '' for none; values escaped. An empty value is left out:
 * Prometheus reads it as absent anyway, and a thousand containers outside Compose would
 * otherwise spend ~150 KB per scrape on `compose_project=""`.
 */
export function labelSet(labels: Record<string, string>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(labels))
    if (value !== '') parts.push(`${name}="${escapeLabelValue(value)}"`);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

/** A sample value as Prometheus parses it: +Inf, -Inf and NaN spelled its way. */
export function formatValue(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  return String(n);
}

/**
 * One metric family: its HELP and TYPE lines and its samples. A family without samples is
 * left out whole, so nothing is written for what no longer exists.
 */
export class Family {
  private readonly lines: string[] = [];

  constructor(
    readonly name: string,
    readonly type: MetricType,
    readonly help: string,
  ) {}

  /** `labels` is a written label set (labelSet), so shared sets are escaped once. */
  add(labels: string, value: number): this {
    this.lines.push(`${this.name}${labels} ${formatValue(value)}`);
    return this;
  }

  get size(): number {
    return this.lines.length;
  }

  toString(): string {
    if (this.lines.length === 0) return '';
    return `# HELP ${this.name} ${escapeHelp(this.help)}\n# TYPE ${this.name} ${this.type}\n${this.lines.join('\n')}\n`;
  }
}

/** Families in order, as one exposition text. */
export const writeFamilies = (families: Family[]): string =>
  families.map((f) => f.toString()).join('');
