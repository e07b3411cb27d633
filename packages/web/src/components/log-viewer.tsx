import { useEffect, useRef, useState } from 'react';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import {
  logMatcher,
  RATE_LIMITED,
  TAIL_OPTIONS,
  useContainerLogs,
  type LogSource,
} from '@/lib/container-logs';
import { usePhone } from '@/hooks/use-breakpoint';
import { cn } from '@/lib/cn';
import { formatTime } from '@/lib/format';
import { seriesColor, useResolvedTheme } from '@/lib/theme';

/** Eight colours rotate across containers; 100 px counts as "at the bottom". */
const COLOURS = [
  '#38bdf8',
  '#a78bfa',
  '#34d399',
  '#fbbf24',
  '#f472b6',
  '#fb923c',
  '#22d3ee',
  '#a3e635',
];
const SCROLL_THRESHOLD_PX = 100;

/** Logs of one or more containers with tail, auto-refresh and regex search. */
export function LogViewer({ sources, showNames }: { sources: LogSource[]; showNames: boolean }) {
  const [tail, setTail] = useState(100);
  const [autoRefresh, setAutoRefresh] = useState(true);
  const [search, setSearch] = useState('');
  const theme = useResolvedTheme();
  // Wrapped, a long line stays in view on a phone; unwrapped, lines keep their columns and the
  // box scrolls sideways. Wrapped by default at every width, as the lines always were.
  const phone = usePhone();
  const [wrap, setWrap] = useState(true);
  const { lines, error, rateLimited, clearRateLimit } = useContainerLogs(
    sources,
    tail,
    autoRefresh,
  );
  const box = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const matches = logMatcher(search);
  const shown = lines.filter((l) => matches(l.log));

  useEffect(() => {
    const el = box.current;
    if (el !== null && stick.current) el.scrollTop = el.scrollHeight;
  }, [shown.length]);

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="mb-2 flex flex-wrap items-center gap-3 text-sm">
        <label className="flex items-center gap-2 text-slate-400">
          Tail
          <Select
            aria-label="Tail"
            size={phone ? 'touch' : 'md'}
            value={tail}
            onChange={(e) => setTail(Number(e.target.value))}
          >
            {TAIL_OPTIONS.map((n) => (
              <option key={n} value={n}>
                {n === 10_000 ? 'all' : n}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex items-center gap-2 text-slate-400 max-md:min-h-11">
          <input
            type="checkbox"
            checked={autoRefresh && !rateLimited}
            onChange={(e) => {
              clearRateLimit();
              setAutoRefresh(e.target.checked);
            }}
          />
          Auto-refresh
        </label>
        <label className="flex items-center gap-2 text-slate-400 max-md:min-h-11">
          <input type="checkbox" checked={wrap} onChange={(e) => setWrap(e.target.checked)} />
          Wrap lines
        </label>
        <Input
          aria-label="Search logs"
          placeholder="Search (regex)"
          size={phone ? 'touch' : 'sm'}
          fullWidth={phone}
          className={phone ? undefined : 'w-56'}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        {rateLimited && <span className="text-amber-300">{RATE_LIMITED}</span>}
        {error !== null && <span className="text-red-300">{error}</span>}
      </div>
      <div
        ref={box}
        data-testid="log-lines"
        onScroll={(e) => {
          const el = e.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < SCROLL_THRESHOLD_PX;
        }}
        data-wrap={wrap}
        className="min-h-64 flex-1 overflow-y-auto rounded-lg border border-slate-800 bg-slate-950/40 p-3 font-mono text-xs leading-5"
      >
        {shown.map((line, i) => (
          <div
            key={i}
            className={cn(
              line.stream === 'stderr' ? 'text-red-200' : 'text-slate-200',
              wrap ? '[overflow-wrap:anywhere]' : 'w-max whitespace-pre',
            )}
          >
            <span className="text-slate-500">
              {line.timestamp === null ? '' : formatTime(line.timestamp)}{' '}
            </span>
            {showNames && (
              <span
                style={{ color: seriesColor(COLOURS[line.source % COLOURS.length] ?? '', theme) }}
              >
                {sources[line.source]?.name}{' '}
              </span>
            )}
            {line.log}
          </div>
        ))}
        {shown.length === 0 && <p className="text-slate-500">No log lines</p>}
      </div>
    </div>
  );
}
