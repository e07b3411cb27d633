import { eventsResponseSchema, type Alert } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { BellOff, BellRing, CheckCircle2, ChevronDown, ExternalLink } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SEVERITY_TONE } from '@/components/event-list';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Sheet } from '@/components/ui/sheet';
import {
  PANEL_SNOOZE,
  alertAnnotationsQueryOptions,
  alertDetailQueryOptions,
  alertTimeAgo,
  useAddAnnotation,
  useAlertActions,
} from '@/lib/alerts';
import { api, errorText } from '@/lib/api-client';
import { containerKeyOf } from '@berth/contracts';
import { containersQueryOptions } from '@/lib/queries';
import { AlertStateBadge, SeverityBadge, alertScopeLabel } from './alert-badges';

/** Related events 15 minutes either side of first and last seen, at most 50. */
const RELATED_WINDOW_MS = 15 * 60_000;
const RELATED_LIMIT = 50;

const relatedEventsQueryOptions = (a: Alert) => ({
  queryKey: [
    'events',
    'alert-related',
    a.id,
    a.host_id,
    a.scope_type,
    a.container_name,
    a.first_seen,
    a.last_seen,
  ],
  queryFn: () =>
    api('/events', eventsResponseSchema, {
      params: {
        start_date: new Date(Date.parse(a.first_seen) - RELATED_WINDOW_MS).toISOString(),
        end_date: new Date(Date.parse(a.last_seen) + RELATED_WINDOW_MS).toISOString(),
        limit: RELATED_LIMIT,
        host_id: a.host_id ?? undefined,
        container_name: a.scope_type === 'container' ? (a.container_name ?? undefined) : undefined,
      },
    }),
  staleTime: 30_000,
});

/**
 * The alert detail side panel: snooze, unsnooze, resolve with confirmation,
 * annotations, related events and links to the scope's events, the rule, host and container.
 */
export function AlertPanel({ alertId, onClose }: { alertId: string; onClose: () => void }) {
  const query = useQuery(alertDetailQueryOptions(alertId));
  const alert = query.data;
  return (
    <Sheet
      open
      onOpenChange={(open) => !open && onClose()}
      title={alert?.title ?? 'Alert'}
      width={560}
    >
      <div data-testid="alert-panel">
        {alert !== undefined ? (
          <AlertBody alert={alert} />
        ) : query.isError ? (
          <p className="text-sm text-red-300">{errorText(query.error, 'Failed to fetch alert')}</p>
        ) : (
          <p className="text-sm text-slate-400">Loading alert…</p>
        )}
      </div>
    </Sheet>
  );
}

function AlertBody({ alert: a }: { alert: Alert }) {
  const { snooze, unsnooze, resolve } = useAlertActions();
  const [confirmResolve, setConfirmResolve] = useState(false);
  const containers = useQuery(containersQueryOptions()).data;
  const container =
    a.scope_type === 'container'
      ? containers?.find((c) => c.host_id === a.host_id && c.name === a.container_name)
      : undefined;

  const doSnooze = (minutes: number, label: string) =>
    snooze.mutate(
      { id: a.id, minutes },
      {
        onSuccess: () => toast.success(`Alert snoozed for ${label}`),
        onError: (err) => toast.error(errorText(err, 'Failed to snooze')),
      },
    );
  const doUnsnooze = () =>
    unsnooze.mutate(a.id, {
      onSuccess: () => toast.success('Alert unsnoozed'),
      onError: (err) => toast.error(errorText(err, 'Failed to unsnooze')),
    });
  const doResolve = () =>
    resolve.mutate(a.id, {
      onSuccess: () => toast.success('Alert resolved'),
      onError: (err) => toast.error(errorText(err, 'Failed to resolve')),
      onSettled: () => setConfirmResolve(false),
    });
  const busy = snooze.isPending || unsnooze.isPending || resolve.isPending;

  return (
    <div className="space-y-6 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <SeverityBadge severity={a.severity} />
        <AlertStateBadge state={a.state} />
        <span className="text-slate-400">{alertScopeLabel(a)}</span>
      </div>
      {a.message !== null && a.message !== '' && <p className="text-slate-200">{a.message}</p>}

      {a.state !== 'resolved' && (
        <div className="flex flex-wrap gap-2">
          {a.state === 'open' && (
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="secondary" size="sm" disabled={busy}>
                  <BellOff className="h-4 w-4" aria-hidden />
                  Snooze
                  <ChevronDown className="h-3.5 w-3.5" aria-hidden />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent side="bottom">
                {PANEL_SNOOZE.map((s) => (
                  <DropdownMenuItem key={s.minutes} onSelect={() => doSnooze(s.minutes, s.label)}>
                    {s.label}
                  </DropdownMenuItem>
                ))}
              </DropdownMenuContent>
            </DropdownMenu>
          )}
          {a.state === 'snoozed' && (
            <Button variant="secondary" size="sm" disabled={busy} onClick={doUnsnooze}>
              <BellRing className="h-4 w-4" aria-hidden />
              Unsnooze
            </Button>
          )}
          <Button
            variant="secondary"
            size="sm"
            disabled={busy}
            onClick={() => setConfirmResolve(true)}
          >
            <CheckCircle2 className="h-4 w-4" aria-hidden />
            Resolve
          </Button>
        </div>
      )}

      <dl className="grid grid-cols-[9rem_1fr] gap-x-4 gap-y-2" data-testid="alert-facts">
        <Fact label="Kind">{a.kind}</Fact>
        <Fact label="Rule">{a.rule_name ?? '—'}</Fact>
        {a.current_value !== null && (
          <Fact label="Current value">
            {a.current_value.toFixed(1)}
            {a.threshold !== null && ` (threshold ${a.threshold})`}
          </Fact>
        )}
        <Fact label="First seen">
          <span title={new Date(a.first_seen).toLocaleString()}>{alertTimeAgo(a.first_seen)}</span>
        </Fact>
        <Fact label="Last seen">
          <span title={new Date(a.last_seen).toLocaleString()}>{alertTimeAgo(a.last_seen)}</span>
        </Fact>
        <Fact label="Occurrences">{a.occurrences}</Fact>
        {a.state === 'snoozed' && a.snoozed_until !== null && (
          <Fact label="Snoozed until">{new Date(a.snoozed_until).toLocaleString()}</Fact>
        )}
        {a.state === 'resolved' && (
          <>
            <Fact label="Resolved">
              {a.resolved_at === null ? '—' : alertTimeAgo(a.resolved_at)}
            </Fact>
            <Fact label="Reason">{a.resolved_reason ?? '—'}</Fact>
          </>
        )}
      </dl>

      <nav aria-label="Alert links" className="flex flex-wrap gap-2">
        <PanelLink to={`/events?scope_id=${encodeURIComponent(a.scope_id)}`}>View Events</PanelLink>
        {a.rule_id !== null && (
          <PanelLink to={`/alerts/rules?ruleId=${encodeURIComponent(a.rule_id)}`}>
            View Rule
          </PanelLink>
        )}
        {a.host_id !== null && (
          <PanelLink to={`/hosts?hostId=${encodeURIComponent(a.host_id)}`}>View Host</PanelLink>
        )}
        {container !== undefined && (
          <PanelLink
            to={`/containers?containerId=${encodeURIComponent(containerKeyOf(container))}`}
          >
            View Container
          </PanelLink>
        )}
      </nav>

      <Annotations alert={a} />
      <RelatedEvents alert={a} />

      <ConfirmDialog
        open={confirmResolve}
        title="Resolve Alert"
        description="Resolve this alert? It will be marked as manually resolved and can no longer be snoozed or annotated."
        confirmLabel="Resolve"
        busy={resolve.isPending}
        onConfirm={doResolve}
        onCancel={() => setConfirmResolve(false)}
      />
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-slate-200">{children}</dd>
    </>
  );
}

function PanelLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="inline-flex items-center gap-1.5 rounded-md border border-slate-700 px-2.5 py-1 text-xs text-slate-200 hover:bg-slate-800"
    >
      {children}
      <ExternalLink className="h-3 w-3" aria-hidden />
    </Link>
  );
}

function Annotations({ alert: a }: { alert: Alert }) {
  const query = useQuery(alertAnnotationsQueryOptions(a.id));
  const add = useAddAnnotation(a.id);
  const [text, setText] = useState('');
  const blank = text.trim() === '';
  const submit = () => {
    if (blank) return;
    add.mutate(text.trim(), {
      onSuccess: () => setText(''),
      onError: (err) => toast.error(errorText(err, 'Failed to add annotation')),
    });
  };
  const annotations = query.data?.annotations ?? [];
  return (
    <section>
      <h3 className="mb-2 text-xs font-semibold tracking-wide text-slate-400 uppercase">
        Annotations
      </h3>
      {query.isError ? (
        <p className="text-red-300">{errorText(query.error, 'Failed to fetch annotations')}</p>
      ) : annotations.length === 0 ? (
        <p className="text-slate-500">
          {query.isPending ? 'Loading annotations…' : 'No annotations yet'}
        </p>
      ) : (
        <ul className="space-y-2" data-testid="alert-annotations">
          {annotations.map((n) => (
            <li key={n.id} className="rounded-md border border-slate-800 bg-slate-950/40 px-3 py-2">
              <div className="mb-1 flex justify-between text-xs text-slate-500">
                <span>{n.user}</span>
                <span title={new Date(n.timestamp).toLocaleString()}>
                  {alertTimeAgo(n.timestamp)}
                </span>
              </div>
              <p className="break-words whitespace-pre-wrap text-slate-200">{n.text}</p>
            </li>
          ))}
        </ul>
      )}
      {a.state !== 'resolved' && (
        <form
          className="mt-3 flex flex-col gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <textarea
            aria-label="Add annotation"
            placeholder="Add an annotation…"
            value={text}
            maxLength={5000}
            rows={2}
            onChange={(e) => setText(e.target.value)}
            className="w-full rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-sm text-slate-100 placeholder:text-slate-500 focus:border-accent focus:outline-none"
          />
          <div className="flex justify-end">
            <Button type="submit" size="sm" disabled={blank || add.isPending}>
              Add Annotation
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}

function RelatedEvents({ alert: a }: { alert: Alert }) {
  const query = useQuery(relatedEventsQueryOptions(a));
  const events = query.data?.events ?? [];
  return (
    <section>
      <h3 className="mb-2 text-xs font-semibold tracking-wide text-slate-400 uppercase">
        Related Events
      </h3>
      {query.isError ? (
        <p className="text-red-300">Failed to load events</p>
      ) : events.length === 0 ? (
        <p className="text-slate-500">{query.isPending ? 'Loading events…' : 'No events found'}</p>
      ) : (
        <ul
          className="divide-y divide-slate-800 rounded-lg border border-slate-800"
          data-testid="alert-related-events"
        >
          {events.map((e) => (
            <li key={e.id} className="flex items-center gap-3 px-3 py-2">
              <span className="w-20 shrink-0 text-xs text-slate-500" title={e.timestamp}>
                {new Date(e.timestamp).toLocaleTimeString(undefined, { hour12: false })}
              </span>
              <span
                className={`w-14 shrink-0 text-xs uppercase ${SEVERITY_TONE[e.severity] ?? 'text-slate-400'}`}
              >
                {e.severity}
              </span>
              <span className="min-w-0 flex-1 truncate text-slate-200" title={e.title}>
                {e.title}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
