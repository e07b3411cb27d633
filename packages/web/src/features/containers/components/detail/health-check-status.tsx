import { CONTAINER_IP_PLACEHOLDER, type HealthCheck } from '@berth/contracts';
import { CheckCircle2, HelpCircle, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { formatAgo } from '@/lib/format';

// What the Health Check tab says about the check's state: the banner, the figures of the
// last result, and which address the check calls.

const LOOKS = {
  healthy: {
    icon: CheckCircle2,
    title: 'Healthy',
    tone: 'border-emerald-800 bg-emerald-950/40 text-emerald-300',
  },
  unhealthy: {
    icon: XCircle,
    title: 'Unhealthy',
    tone: 'border-red-800 bg-red-950/40 text-red-300',
  },
  unknown: {
    icon: HelpCircle,
    title: 'Unknown',
    tone: 'border-slate-700 bg-slate-900 text-slate-300',
  },
};

export function StatusBanner({ check }: { check: HealthCheck }) {
  const status = check.enabled ? check.current_status : 'unknown';
  const look = LOOKS[status];
  const detail =
    status === 'unhealthy'
      ? check.last_error_message
      : status === 'unknown'
        ? check.enabled
          ? 'Waiting for first health check'
          : 'Health check is not enabled'
        : check.last_response_time_ms === null
          ? null
          : `Responded in ${check.last_response_time_ms} ms`;
  const Icon = look.icon;
  return (
    <div
      role="status"
      data-testid="health-banner"
      className={cn(
        'flex min-w-64 flex-1 items-start gap-3 rounded-lg border px-4 py-3',
        look.tone,
      )}
    >
      <Icon className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
      <div>
        <div className="font-semibold">{look.title}</div>
        {detail !== null && <div className="text-sm opacity-90">{detail}</div>}
      </div>
    </div>
  );
}

/** The last result's figures, once an enabled check has run. */
export function HealthStats({ check }: { check: HealthCheck }) {
  if (!check.enabled || check.last_checked_at === null) return null;
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-3" data-testid="health-stats">
      <Stat label="Last Checked">{formatAgo(check.last_checked_at)}</Stat>
      <Stat label="Response Time">
        {check.last_response_time_ms === null ? '—' : `${check.last_response_time_ms} ms`}
      </Stat>
      <Stat label="Consecutive Failures">
        {check.consecutive_failures > 0
          ? `${check.consecutive_failures} / ${check.failure_threshold}`
          : '0'}
      </Stat>
    </div>
  );
}

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-800 bg-slate-900/60 px-4 py-3">
      <div className="text-xs text-slate-400">{label}</div>
      <div className="mt-1 text-lg font-semibold text-slate-100">{children}</div>
    </div>
  );
}

/** Which address the check calls: the container's own or one on Berth's side. */
export function AddressNote({ check, url }: { check: HealthCheck; url: string }) {
  if (url.trim() === '') return null;
  const relative = url.includes(CONTAINER_IP_PLACEHOLDER);
  return (
    <p className="text-xs text-slate-400" data-testid="health-address">
      {relative ? (
        <>
          Berth calls the container's own address: {CONTAINER_IP_PLACEHOLDER} is read from the
          container's inspect data
          {check.resolved_url !== null && check.url === url ? (
            <>
              {' '}
              — last called <code className="text-slate-200">{check.resolved_url}</code>
            </>
          ) : (
            ' at each check'
          )}
          . This works where Berth shares the engine's network.
        </>
      ) : (
        <>
          Berth calls <code className="text-slate-200">{url}</code> from its own server, e.g. a port
          the container publishes on its host.
        </>
      )}
    </p>
  );
}
