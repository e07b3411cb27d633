import { containerScopeId, type Alert, type Container } from '@berth/contracts';
import { Link } from 'react-router';
import { ALERT_SEVERITIES, ALERT_SEVERITY_TONE } from '@/lib/alerts';
import { cn } from '@/lib/cn';

/**
 * The containers table's Alerts cell: open alerts by severity, each linking to
 * the Alerts page filtered to this container, that severity and open alerts.
 */
export function ContainerAlertCounts({
  container: c,
  openAlerts,
}: {
  container: Container;
  /** Open alerts by scope id, read once for the whole table (`openAlertsByScope`). */
  openAlerts: ReadonlyMap<string, Alert[]>;
}) {
  const scopeId = containerScopeId(c.host_id, c.name);
  const mine = openAlerts.get(scopeId);
  if (mine === undefined || mine.length === 0) return <span className="text-slate-600">—</span>;
  return (
    <div className="flex gap-1" data-testid="container-alert-counts">
      {ALERT_SEVERITIES.map((severity) => {
        const count = mine.filter((a) => a.severity === severity).length;
        if (count === 0) return null;
        const to = `/alerts?${new URLSearchParams({ state: 'open', severity, scope_id: scopeId }).toString()}`;
        return (
          <Link
            key={severity}
            to={to}
            title={`${count} open ${severity} alert${count === 1 ? '' : 's'}`}
            aria-label={`${count} ${severity}`}
            onClick={(e) => e.stopPropagation()}
            className={cn(
              'rounded px-1.5 py-0.5 text-xs tabular-nums',
              ALERT_SEVERITY_TONE[severity],
            )}
          >
            {count}
          </Link>
        );
      })}
    </div>
  );
}
