import type { Container, ExecuteUpdateResponse, UpdateStatus } from '@berth/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, Info } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorText } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatTime } from '@/lib/format';
import { useLiveMessages } from '@/lib/live/live-provider';
import { isFinalUpdateStage } from '../../lib/update-running';
import { containersQueryOptions, updatesSummaryQueryOptions } from '@/lib/queries';
import {
  executeUpdate,
  hostUpdateStatusesKey,
  rollbackUpdate,
  updateStatusQueryOptions,
  useCheckUpdate,
} from '../../api/updates-api';
import { ImagePanel, LinkRow } from './updates-panels';
import { ProgressPanel, type Layers, type Stage } from './updates-progress';
import { UpdateSettings } from './updates-settings';

/**
 * What the banner says: before the first check there is nothing to claim, so it says only
 * that ('Up to Date' would be a guess).
 */
const bannerOf = (s: UpdateStatus) =>
  s.update_available
    ? 'Update Available'
    : s.last_checked_at === null
      ? 'Not Checked'
      : 'Up to Date';
const BANNER_TONE = {
  'Update Available': 'border-amber-700 bg-amber-950/40',
  'Up to Date': 'border-emerald-800 bg-emerald-950/30',
  'Not Checked': 'border-slate-700 bg-slate-900/40',
} as const;

const CHECK_COOLDOWN_MS = 5000;
const CLEAR_AFTER_MS = 3000;

/** The container detail dialog's Updates tab. */
export function UpdatesTab({ container: c }: { container: Container }) {
  const qc = useQueryClient();
  const statusQuery = useQuery(updateStatusQueryOptions(c));
  const check = useCheckUpdate(c);
  const lastCheck = useRef(0);
  const [running, setRunning] = useState(false);
  const [confirm, setConfirm] = useState<ExecuteUpdateResponse | null>(null);
  const [stage, setStage] = useState<Stage | null>(null);
  const [layers, setLayers] = useState<Layers | null>(null);
  const [showLayers, setShowLayers] = useState(true);
  const clearTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const clearLater = () => {
    if (clearTimer.current !== null) clearTimeout(clearTimer.current);
    clearTimer.current = setTimeout(() => {
      clearTimer.current = null;
      setStage(null);
      setLayers(null);
    }, CLEAR_AFTER_MS);
  };
  useLiveMessages('container_update_progress', ({ data }) => {
    if (data.host_id !== c.host_id || data.container_id !== c.id) return;
    setStage(data);
    if (isFinalUpdateStage(data.stage)) clearLater();
  });
  useLiveMessages('container_update_layer_progress', ({ data }) => {
    if (data.host_id === c.host_id && data.container_id === c.id) setLayers(data);
  });
  useEffect(
    () => () => {
      if (clearTimer.current !== null) clearTimeout(clearTimer.current);
    },
    [],
  );

  const status = statusQuery.data;
  if (statusQuery.isPending)
    return <p className="text-sm text-slate-400">Loading update status…</p>;

  const onCheck = () => {
    const wait = lastCheck.current + CHECK_COOLDOWN_MS - Date.now();
    if (wait > 0) {
      const s = Math.ceil(wait / 1000);
      toast.error(`Please wait ${s} second(s) before checking again`);
      return;
    }
    lastCheck.current = Date.now();
    check.mutate(undefined, {
      onSuccess: () => toast.success('Update check complete'),
      onError: (err) => toast.error('Failed to check for updates', { description: errorText(err) }),
    });
  };

  const refresh = () => {
    // The host's every status, not this id's alone: an update recreates the container, and the
    // dialog may already show the new one.
    void qc.invalidateQueries({ queryKey: hostUpdateStatusesKey(c.host_id) });
    void qc.invalidateQueries({ queryKey: containersQueryOptions().queryKey });
    void qc.invalidateQueries({ queryKey: updatesSummaryQueryOptions().queryKey });
  };

  const run = async (force: boolean, action: 'update' | 'rollback' = 'update') => {
    setRunning(true);
    setShowLayers(true);
    try {
      const res = action === 'update' ? await executeUpdate(c, force) : await rollbackUpdate(c);
      if (res.status === 'blocked' || (res.validation === 'block' && res.status !== 'success')) {
        toast.error('Update blocked by policy', {
          description: res.reason ?? 'This container has a block policy that prevents updates',
        });
      } else if (res.status === 'requires_confirmation') {
        setConfirm(res);
      } else if (res.status === 'failed') {
        toast.error(res.message || 'Container update failed', {
          description:
            res.detail ??
            'The update failed and your container has been automatically restored to its previous state.',
          duration: 10_000,
        });
      } else {
        toast.success('Container updated successfully');
      }
    } catch (err) {
      toast.error('Failed to update container', { description: errorText(err) });
    } finally {
      setRunning(false);
      // The answer means the run is over: a panel whose last stages were lost with the live
      // socket (a reconnect mid-update) must not stay on a middle stage.
      if (clearTimer.current === null) clearLater();
      refresh();
    }
  };

  if (status === undefined)
    return (
      <div className="space-y-3 text-sm">
        <p className="text-red-300">Failed to load update status</p>
        <Button size="sm" variant="secondary" onClick={onCheck}>
          Check Now
        </Button>
      </div>
    );

  const banner = bannerOf(status);
  const v = status.validation_info;
  const composeSkipped = status.is_compose_container && status.skip_compose_enabled;
  const wontRun = status.auto_update_enabled && (composeSkipped || v !== null);

  return (
    <div className="grid max-w-4xl gap-4 text-sm" data-testid="updates-tab">
      <section
        data-testid="update-banner"
        className={cn(
          'flex flex-wrap items-center gap-3 rounded-lg border p-4',
          BANNER_TONE[banner],
        )}
      >
        {banner === 'Update Available' ? (
          <AlertTriangle className="h-5 w-5 text-amber-400" aria-hidden />
        ) : banner === 'Up to Date' ? (
          <CheckCircle2 className="h-5 w-5 text-emerald-400" aria-hidden />
        ) : (
          <Info className="h-5 w-5 text-slate-400" aria-hidden />
        )}
        <div>
          <p className="font-semibold text-slate-100">{banner}</p>
          {status.last_checked_at !== null && (
            <p className="text-xs text-slate-400" data-testid="last-checked">
              Last checked: {formatTime(status.last_checked_at)}
            </p>
          )}
          {status.last_error !== null && (
            <p className="text-xs text-amber-300" data-testid="check-error">
              {status.last_error}
            </p>
          )}
        </div>
        <div className="ml-auto flex gap-2">
          <Button
            size="sm"
            variant="secondary"
            onClick={onCheck}
            disabled={check.isPending || running}
          >
            {check.isPending ? 'Checking…' : 'Check Now'}
          </Button>
          {status.update_available && (
            <Button size="sm" onClick={() => void run(false)} disabled={running}>
              {running ? 'Updating…' : 'Update Now'}
            </Button>
          )}
        </div>
      </section>

      {wontRun && (
        <section
          data-testid="auto-update-warning"
          className="rounded-lg border border-amber-700 bg-amber-950/30 p-4 text-amber-100"
        >
          <p className="font-semibold">Auto-Update Won't Run Automatically</p>
          <ul className="mt-1 list-disc pl-5 text-xs">
            {composeSkipped && (
              <li>
                This container is managed by Docker Compose and compose containers are skipped
                (Settings → Container Updates).
              </li>
            )}
            {v?.result === 'block' && <li>Updates are blocked by policy: {v.reason}</li>}
            {v?.result === 'warn' && (
              <li>
                A warn policy needs a manual confirmation: {v.reason}
                {v.matched_pattern !== null && ` (pattern '${v.matched_pattern}')`}
              </li>
            )}
          </ul>
        </section>
      )}

      {stage !== null && (
        <ProgressPanel
          stage={stage}
          layers={layers}
          open={showLayers}
          onToggle={() => setShowLayers((o) => !o)}
        />
      )}

      <div className="grid gap-4 md:grid-cols-2">
        <ImagePanel
          testId="current-image"
          title="Current Image"
          image={status.current_image}
          digest={status.current_digest}
        />
        {status.update_available && (
          <ImagePanel
            testId="latest-image"
            title="Latest Available"
            image={status.latest_image ?? status.current_image}
            digest={status.latest_digest}
          />
        )}
      </div>
      {status.previous_image !== null && (
        <p className="text-xs text-slate-400">
          Previous version kept: <span className="font-mono">{status.previous_image}</span>{' '}
          <Button
            size="sm"
            variant="ghost"
            disabled={running}
            onClick={() => void run(true, 'rollback')}
          >
            Roll back
          </Button>
        </p>
      )}

      <section className="rounded-lg border border-slate-800 p-4">
        <h3 className="mb-2 font-semibold text-slate-200">Resource Links</h3>
        <LinkRow container={c} status={status} kind="changelog" />
        <LinkRow container={c} status={status} kind="registry" />
      </section>

      <UpdateSettings container={c} status={status} />

      <section className="flex gap-3 rounded-lg border border-slate-800 bg-slate-900/60 p-4 text-xs text-slate-400">
        <Info className="h-4 w-4 shrink-0 text-sky-400" aria-hidden />
        <div>
          <p className="font-semibold text-slate-200">About Container Updates</p>
          <p>
            The update check runs daily at the time set in Settings → Container Updates. Tracking
            Mode decides how far a tag may move; with auto-update on, allowed updates are applied
            after the check, one container at a time per host. Every update is verified (its
            HEALTHCHECK, or running without restarts) and the previous container is restored when it
            fails; a version that failed is not offered again.
          </p>
        </div>
      </section>

      <Dialog
        open={confirm !== null}
        onOpenChange={(o) => !o && setConfirm(null)}
        title="Confirm update"
        description="This container matches an update policy that asks for confirmation."
      >
        <div className="space-y-2 text-sm" data-testid="force-dialog">
          <p>
            <span className="text-slate-400">Reason: </span>
            {confirm?.reason}
          </p>
          {confirm?.matched_pattern !== null && confirm?.matched_pattern !== undefined && (
            <p>
              <span className="text-slate-400">Matched pattern: </span>
              <code>{confirm.matched_pattern}</code>
            </p>
          )}
          <div className="flex justify-end gap-2 pt-2">
            <Button variant="secondary" onClick={() => setConfirm(null)}>
              Cancel
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                setConfirm(null);
                void run(true);
              }}
            >
              Update Anyway
            </Button>
          </div>
        </div>
      </Dialog>
    </div>
  );
}
