import { containerScopeId, type Container } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { AlertList, Pager } from '@/components/alert-list';
import { AlertPanel } from '@/components/alert-panel';
import { alertListQueryOptions } from '@/lib/alerts';
import { errorText } from '@/lib/api-client';

/** The Alerts tab shows 10 a page. */
const PAGE_SIZE = 10;

/** The container detail dialog's Alerts tab: its alerts and the detail panel. */
export function AlertsTab({ container: c }: { container: Container }) {
  const scopeId = containerScopeId(c.host_id, c.name);
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string | null>(null);
  const query = useQuery(
    alertListQueryOptions({ scope_type: 'container', scope_id: scopeId }, page, PAGE_SIZE),
  );
  const alerts = query.data?.alerts ?? [];
  const empty = query.isError
    ? errorText(query.error, 'Failed to fetch alerts')
    : query.isPending
      ? 'Loading alerts…'
      : 'No alerts for this container';
  return (
    <div data-testid="container-alerts-tab">
      <div className="mb-3 flex justify-end">
        <Link
          to={`/alerts?scope_id=${encodeURIComponent(scopeId)}`}
          className="text-xs text-slate-400 hover:text-white hover:underline"
        >
          View on the Alerts page
        </Link>
      </div>
      <AlertList alerts={alerts} empty={empty} onOpen={(a) => setOpenId(a.id)} />
      <Pager
        page={page}
        pageSize={PAGE_SIZE}
        total={query.data?.total ?? 0}
        onPage={setPage}
        noun="alerts"
      />
      {openId !== null && (
        <AlertPanel key={openId} alertId={openId} onClose={() => setOpenId(null)} />
      )}
    </div>
  );
}
