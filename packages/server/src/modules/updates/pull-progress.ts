import type { PullEvent } from '../../docker/index.js';

export interface LayerView {
  id: string;
  status: string;
  total: number;
  percent: number;
}

export interface LayerProgress {
  overall_progress: number;
  layers: LayerView[];
  total_layers: number;
  remaining_layers: number;
  summary: string;
  speed_mbps: number | null;
}

const DONE = new Set(['Pull complete', 'Already exists']);
const DOWNLOADED = new Set(['Download complete', 'Verifying Checksum', 'Extracting']);
const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/**
 * Folds the pull stream into per-layer state and the figures the progress panel shows:
 * overall percent by bytes (a layer that already exists counts as done), layers left,
 * a one-line summary and the download speed over the last interval.
 */
export class PullProgress {
  private readonly layers = new Map<string, { status: string; current: number; total: number }>();
  private lastBytes = 0;
  private lastAt = Date.now();
  private speed: number | null = null;

  add(e: PullEvent): void {
    if (e.id === undefined || e.status === undefined) return;
    // Lines about the tag itself ("Pulling from x", "Digest: ...") have no layer id shape.
    if (!/^[0-9a-f]{12,64}$/.test(e.id)) return;
    const layer = this.layers.get(e.id) ?? { status: e.status, current: 0, total: 0 };
    layer.status = e.status;
    const d = e.progressDetail;
    if (e.status === 'Downloading' && d?.total !== undefined && d.total > 0) {
      layer.total = d.total;
      layer.current = d.current ?? layer.current;
    } else if (DOWNLOADED.has(e.status) || DONE.has(e.status)) {
      layer.current = layer.total;
    }
    this.layers.set(e.id, layer);
  }

  private downloaded(): number {
    let sum = 0;
    for (const l of this.layers.values()) sum += l.current;
    return sum;
  }

  snapshot(): LayerProgress {
    const all = [...this.layers.entries()];
    const done = all.filter(([, l]) => DONE.has(l.status)).length;
    const percentOf = (l: { status: string; current: number; total: number }) =>
      DONE.has(l.status) || DOWNLOADED.has(l.status)
        ? 100
        : l.total > 0
          ? Math.min(100, Math.round((l.current / l.total) * 100))
          : 0;
    const now = Date.now();
    const bytes = this.downloaded();
    if (now - this.lastAt >= 400) {
      this.speed =
        Math.round(((bytes - this.lastBytes) / ((now - this.lastAt) / 1000) / 1e6) * 10) / 10;
      this.lastBytes = bytes;
      this.lastAt = now;
    }
    const overall =
      all.length === 0
        ? 0
        : Math.round(
            all.reduce((s, [, l]) => s + (DONE.has(l.status) ? 100 : percentOf(l) * 0.9), 0) /
              all.length,
          );
    const totalBytes = all.reduce((s, [, l]) => s + l.total, 0);
    return {
      overall_progress: overall,
      layers: all.map(([id, l]) => ({
        id,
        status: l.status,
        total: l.total,
        percent: percentOf(l),
      })),
      total_layers: all.length,
      remaining_layers: all.length - done,
      summary:
        all.length === 0
          ? 'Starting pull...'
          : `${done} of ${all.length} layers complete${totalBytes > 0 ? ` (${mb(bytes)} / ${mb(totalBytes)})` : ''}`,
      speed_mbps: this.speed,
    };
  }

  /**
   * The figures once the pull has ended: 100 %, every layer done, and a summary that says
   * so. A pull of an image the engine already holds lists no layer at all.
   */
  finished(): LayerProgress {
    const last = this.snapshot();
    const present = last.layers.filter((l) => l.status === 'Already exists').length;
    const n = last.total_layers;
    const layers = `${n} layer${n === 1 ? '' : 's'}`;
    const summary =
      n === 0
        ? 'Pull complete (image already present)'
        : `Pull complete (${layers}${present > 0 ? `, ${present} already present` : ''})`;
    return {
      ...last,
      overall_progress: 100,
      layers: last.layers.map((l) => ({ ...l, percent: 100 })),
      remaining_layers: 0,
      summary,
    };
  }
}
