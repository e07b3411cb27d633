import { containerKeyOf, type Container } from '@berth/contracts';
import type { RowSelectionState } from '@tanstack/react-table';
import {
  AlertTriangle,
  CircleArrowUp,
  Info,
  Loader2,
  MoreVertical,
  Play,
  RotateCw,
  ScrollText,
  Square,
} from 'lucide-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { scrollParentOf } from '@/components/data-table';
import { ActionMenu, DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { useLongPress } from '@/hooks/use-long-press';
import { cn } from '@/lib/cn';
import { SHOULD_RUN_FLAG, shouldBeRunning, stateLabel } from '@/lib/container-state';
import { formatMemory, formatPercent } from '@/lib/format';
import { useLiveContainer } from '../lib/live-container';
import { DOT, type RowActions } from './container-columns';

/** The row's actions as a menu: the same actions, and the same checks, as the table's row. */
export function ContainerActionsMenu({
  container: c,
  actions,
}: {
  container: Container;
  actions: RowActions;
}) {
  const running = c.state === 'running';
  const startable = c.state === 'exited' || c.state === 'stopped' || c.state === 'created';
  return (
    <ActionMenu
      label={`Actions for ${c.name}`}
      icon={<MoreVertical className="h-5 w-5" aria-hidden />}
      className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg text-slate-300 hover:bg-slate-800 hover:text-white"
    >
      <DropdownMenuItem onSelect={() => actions.open(c, 'info')}>
        <Info className="h-4 w-4" aria-hidden /> Details
      </DropdownMenuItem>
      <DropdownMenuItem
        disabled={actions.busy || !startable}
        onSelect={() => actions.act(c, 'start')}
      >
        <Play className="h-4 w-4" aria-hidden /> Start
      </DropdownMenuItem>
      <DropdownMenuItem disabled={actions.busy || !running} onSelect={() => actions.act(c, 'stop')}>
        <Square className="h-4 w-4" aria-hidden /> Stop
      </DropdownMenuItem>
      <DropdownMenuItem
        disabled={actions.busy || !running}
        onSelect={() => actions.act(c, 'restart')}
      >
        <RotateCw className="h-4 w-4" aria-hidden /> Restart
      </DropdownMenuItem>
      {actions.canReadLogs !== false && (
        <DropdownMenuItem onSelect={() => actions.open(c, 'logs')}>
          <ScrollText className="h-4 w-4" aria-hidden /> Logs
        </DropdownMenuItem>
      )}
      {actions.withUpdates.has(containerKeyOf(c)) && (
        <DropdownMenuItem onSelect={() => actions.open(c, 'updates')}>
          <CircleArrowUp className="h-4 w-4" aria-hidden /> Update
        </DropdownMenuItem>
      )}
    </ActionMenu>
  );
}

/**
 * Longer lists draw only the cards in view (plus overscan), as the table does: a thousand
 * cards would otherwise each be drawn and each follow the live stats (bench/phone).
 */
const VIRTUAL_FROM = 100;
const CARD_ESTIMATE_PX = 78;
const CARD_GAP_PX = 8;
const OVERSCAN_CARDS = 6;

/** Where a drawn card of a long list sits, and how the list measures it. */
interface Placed {
  index: number;
  top: number;
  measure: (el: Element | null) => void;
}

interface CardProps {
  /** Possibly older than the cache's: the card reads its stats live, as a table row does. */
  container: Container;
  actions: RowActions;
  selecting: boolean;
  selected: boolean;
  onSelect: (key: string, on: boolean) => void;
  /** A long press on a card: select mode, with this card chosen. */
  onLongPress: (key: string) => void;
  placed?: Placed | undefined;
}

/** One container as a card: state, name, image, host, CPU and memory, and its menu. */
const ContainerCard = memo(function ContainerCard({
  container,
  actions,
  selecting,
  selected,
  onSelect,
  onLongPress,
  placed,
}: CardProps) {
  const c = useLiveContainer(container);
  const key = containerKeyOf(c);
  const longPress = useLongPress(() => onLongPress(key));
  const body = (
    <>
      <div className="flex min-w-0 items-center gap-2">
        {c.state === 'restarting' ? (
          <Loader2 className="h-3 w-3 shrink-0 animate-spin text-sky-400" aria-hidden />
        ) : (
          <span
            className={cn('h-2 w-2 shrink-0 rounded-full', DOT[c.state] ?? 'bg-slate-500')}
            aria-hidden
          />
        )}
        <span className="truncate font-medium text-white" data-testid="card-name">
          {c.name}
        </span>
      </div>
      <div className="truncate text-xs text-slate-500">{c.image}</div>
      <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-0.5 text-xs text-slate-400">
        <span className="inline-flex items-center gap-1" data-testid="state">
          {stateLabel(c)}
          {shouldBeRunning(c) && (
            <AlertTriangle className="h-3.5 w-3.5 text-amber-400" aria-label={SHOULD_RUN_FLAG} />
          )}
        </span>
        <span className="max-w-32 truncate">{c.host_name || 'localhost'}</span>
        <span className="tabular-nums">CPU {formatPercent(c.cpu_percent)}</span>
        <span className="tabular-nums">RAM {formatMemory(c.memory_usage)}</span>
      </div>
    </>
  );
  return (
    <li
      data-testid={`container-card-${c.name}`}
      data-selected={selected}
      {...longPress.swallowClick}
      {...(placed === undefined
        ? {}
        : {
            ref: placed.measure,
            'data-index': placed.index,
            style: { position: 'absolute', top: placed.top, left: 0, right: 0 },
          })}
      className={cn(
        'flex items-center gap-1 rounded-xl border bg-slate-900/60 py-1 pr-1 pl-3',
        placed === undefined && '[contain-intrinsic-size:auto_84px] [content-visibility:auto]',
        selected ? 'border-accent' : 'border-slate-800',
      )}
    >
      {selecting ? (
        <label className="flex min-h-11 min-w-0 flex-1 cursor-pointer items-center gap-3 py-1">
          <input
            type="checkbox"
            className="h-5 w-5 shrink-0"
            aria-label={`Select ${c.name}`}
            checked={selected}
            onChange={(e) => onSelect(key, e.target.checked)}
          />
          <div className="min-w-0 flex-1">{body}</div>
        </label>
      ) : (
        <button
          type="button"
          onClick={() => actions.open(c, 'info')}
          {...longPress.press}
          aria-label={`Open ${c.name}`}
          className="block min-h-11 min-w-0 flex-1 py-1 text-left select-none [-webkit-touch-callout:none]"
        >
          {body}
        </button>
      )}
      <ContainerActionsMenu container={c} actions={actions} />
    </li>
  );
});

/**
 * The containers list on a phone: the table's rows, order and selection as cards. Select
 * mode puts a checkbox on each card in place of opening it; a long press on a card starts it
 * with that card chosen.
 */
export function ContainerCards({
  containers,
  actions,
  selecting,
  selection,
  onSelectionChange,
  onLongPress,
}: {
  containers: Container[];
  actions: RowActions;
  selecting: boolean;
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
  onLongPress: (key: string) => void;
}) {
  // The same function while the selection is, so a card redraws only when its own state does.
  const onSelect = useCallback(
    (key: string, on: boolean) => {
      const next = Object.fromEntries(Object.entries(selection).filter(([k]) => k !== key));
      if (on) next[key] = true;
      onSelectionChange(next);
    },
    [selection, onSelectionChange],
  );
  const card = (c: Container, placed?: Placed) => {
    const key = containerKeyOf(c);
    return (
      <ContainerCard
        key={key}
        container={c}
        actions={actions}
        selecting={selecting}
        selected={selection[key] === true}
        onSelect={onSelect}
        onLongPress={onLongPress}
        placed={placed}
      />
    );
  };
  if (containers.length > VIRTUAL_FROM) return <VirtualCards containers={containers} card={card} />;
  return (
    <ul className="space-y-2" data-testid="container-cards">
      {containers.map((c) => card(c))}
    </ul>
  );
}

/** A long list's cards in view, placed in a box as tall as the whole list. */
function VirtualCards({
  containers,
  card,
}: {
  containers: Container[];
  card: (c: Container, placed: Placed) => React.ReactNode;
}) {
  const list = useRef<HTMLUListElement>(null);
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const [margin, setMargin] = useState(0);
  // Measured after every render (the toolbar above may wrap); equal values end the chain.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    const el = list.current;
    if (el === null) return;
    const found = scroller !== null && scroller !== document.documentElement;
    const parent = found && scroller.contains(el) ? scroller : scrollParentOf(el);
    setScroller(parent);
    setMargin(
      Math.round(
        el.getBoundingClientRect().top - parent.getBoundingClientRect().top + parent.scrollTop,
      ),
    );
  });
  const getItemKey = useCallback(
    (index: number) => {
      const c = containers[index];
      return c === undefined ? index : containerKeyOf(c);
    },
    [containers],
  );
  // TanStack Virtual hands back functions by design; the React Compiler lint cannot know that.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: containers.length,
    getScrollElement: () => scroller,
    estimateSize: () => CARD_ESTIMATE_PX,
    gap: CARD_GAP_PX,
    overscan: OVERSCAN_CARDS,
    scrollMargin: margin,
    getItemKey,
  });
  // Item positions count from the scroller's top (the list starts `margin` below); the total does not.
  return (
    <ul
      ref={list}
      data-testid="container-cards"
      className="relative"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((item) => {
        const c = containers[item.index];
        return c === undefined
          ? null
          : card(c, {
              index: item.index,
              top: item.start - margin,
              measure: virtualizer.measureElement,
            });
      })}
    </ul>
  );
}
