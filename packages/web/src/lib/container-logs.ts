import { containerKey } from '@berth/contracts';
import { containerLogsResponseSchema, MAX_LOG_TAIL, type LogLine } from '@berth/contracts';
import { useEffect, useState } from 'react';
import { api, ApiError } from './api-client';

export interface LogSource {
  hostId: string;
  containerId: string;
  name: string;
}

export interface MergedLine extends LogLine {
  source: number;
}

/** Refresh every 2 s, requests staggered 100 ms per container. */
const REFRESH_MS = 2000;
const STAGGER_MS = 100;
export const TAIL_OPTIONS = [50, 100, 500, 1000, MAX_LOG_TAIL] as const;
export const RATE_LIMITED = 'Rate limit reached. Auto-refresh disabled.';

const byTime = (a: MergedLine, b: MergedLine) =>
  (a.timestamp ?? '').localeCompare(b.timestamp ?? '');

/**
 * Logs of one or more containers, merged by time. Auto-refresh stops on HTTP 429 with the
 * spec's message; other failures show per container and the rest keep refreshing.
 */
export function useContainerLogs(sources: LogSource[], tail: number, autoRefresh: boolean) {
  // Lines are kept with the selection they belong to, so a new selection never shows old lines.
  const [result, setResult] = useState<{ key: string; lines: MergedLine[] }>({
    key: '',
    lines: [],
  });
  const [error, setError] = useState<string | null>(null);
  const [rateLimited, setRateLimited] = useState(false);
  const key = sources.map((s) => containerKey(s.hostId, s.containerId)).join(',');

  useEffect(() => {
    if (key === '') return undefined;
    let cancelled = false;
    const latest: MergedLine[][] = sources.map(() => []);
    const timers: ReturnType<typeof setTimeout>[] = [];
    const fetchOne = async (index: number) => {
      const source = sources[index];
      if (source === undefined) return;
      try {
        const res = await api(
          `/hosts/${source.hostId}/containers/${source.containerId}/logs`,
          containerLogsResponseSchema,
          { params: { tail } },
        );
        latest[index] = res.logs.map((l) => ({ ...l, source: index }));
        if (!cancelled) {
          setResult({ key, lines: latest.flat().sort(byTime) });
          setError(null);
        }
      } catch (err) {
        if (cancelled) return;
        if (err instanceof ApiError && err.status === 429) setRateLimited(true);
        else setError(`${source.name}: ${err instanceof Error ? err.message : String(err)}`);
      }
    };
    const round = () =>
      sources.forEach((_, i) => timers.push(setTimeout(() => void fetchOne(i), i * STAGGER_MS)));
    round();
    const interval = autoRefresh && !rateLimited ? setInterval(round, REFRESH_MS) : undefined;
    return () => {
      cancelled = true;
      timers.forEach(clearTimeout);
      if (interval !== undefined) clearInterval(interval);
    };
    // `sources` is identified by `key`; a new array with the same containers changes nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, tail, autoRefresh, rateLimited]);

  return {
    lines: result.key === key ? result.lines : [],
    error,
    rateLimited,
    clearRateLimit: () => setRateLimited(false),
  };
}

/** Case-insensitive regular expression, or a plain substring when the text is not one. */
export function logMatcher(search: string): (text: string) => boolean {
  const q = search.trim();
  if (q === '') return () => true;
  try {
    const re = new RegExp(q, 'i');
    return (text) => re.test(text);
  } catch {
    const lower = q.toLowerCase();
    return (text) => text.toLowerCase().includes(lower);
  }
}
