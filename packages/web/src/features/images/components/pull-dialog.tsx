import { IMAGE_REFERENCE_PATTERN, type ImagePullLine } from '@berth/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { HostPicker } from '@/components/host-picker';
import { TextField, useChosenHost } from '@/components/resource-list/resource-form';
import type { HostDialogProps } from '@/components/resource-list/resource-view';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorText } from '@/lib/api-client';
import { formatBytes } from '@/lib/format';
import { cancelPull, IMAGES_KEY, pullImage } from '../api/images-api';

type Progress = Extract<ImagePullLine, { type: 'progress' }>;

/**
 * Pull an image by reference onto a host, with the registry credentials Settings → Updates
 * keep, showing each layer's progress as the engine reports it.
 */
export function PullDialog({ hosts, hostId: fixedHost, onClose }: HostDialogProps) {
  const client = useQueryClient();
  const [hostId, setHostId] = useChosenHost(hosts, fixedHost);
  const [reference, setReference] = useState('');
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const abort = useRef<AbortController | null>(null);
  // The pull's own reference and host, as started: the fields may change meanwhile.
  const pulling = useRef<{ hostId: string; reference: string; cancelled: boolean } | null>(null);
  const [cancelling, setCancelling] = useState(false);
  // Closing the dialog stops reading; the engine finishes the pull on its own.
  useEffect(() => () => abort.current?.abort(), []);

  const trimmed = reference.trim();
  const invalid =
    trimmed !== '' && !IMAGE_REFERENCE_PATTERN.test(trimmed)
      ? 'Reference must be an image reference such as nginx:1.27'
      : null;

  const start = async () => {
    setRunning(true);
    setResult(null);
    setProgress(null);
    const controller = new AbortController();
    abort.current = controller;
    const current = { hostId, reference: trimmed, cancelled: false };
    pulling.current = current;
    try {
      const last = await pullImage(
        hostId,
        trimmed,
        (line) => {
          if (line.type === 'progress') setProgress(line);
        },
        controller.signal,
      );
      if (last?.type === 'done') {
        setResult({ ok: true, text: `Pulled ${last.reference}` });
        toast.success(`Pulled ${last.reference}`);
        void client.invalidateQueries({ queryKey: IMAGES_KEY });
      } else if (last?.type === 'error') {
        // A cancelled pull's last progress ("Starting pull…") no longer says anything.
        if (current.cancelled) setProgress(null);
        setResult({ ok: false, text: last.detail });
      } else setResult({ ok: false, text: 'The pull ended without an answer' });
    } catch (err) {
      if (!controller.signal.aborted) setResult({ ok: false, text: errorText(err) });
    } finally {
      setRunning(false);
      setCancelling(false);
    }
  };

  // Closing the dialog leaves the pull to the engine; Cancel stops it there.
  const cancel = () => {
    const p = pulling.current;
    if (p === null) return;
    setCancelling(true);
    p.cancelled = true;
    cancelPull(p.hostId, p.reference).catch((err: unknown) => {
      setCancelling(false);
      toast.error('Failed to cancel the pull', { description: errorText(err) });
    });
  };

  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Pull image" size="lg">
      <form
        className="space-y-4 text-sm"
        data-testid="pull-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          if (!running && trimmed !== '' && invalid === null) void start();
        }}
      >
        {fixedHost === null && <HostPicker hosts={hosts} value={hostId} onChange={setHostId} />}
        <TextField
          label="Reference"
          placeholder="nginx:1.27 or registry.example.com/team/app:tag"
          value={reference}
          disabled={running}
          onValue={setReference}
          autoFocus
        />
        {invalid !== null && <p className="text-red-400">{invalid}</p>}
        {progress !== null && <PullProgressView progress={progress} />}
        {result !== null && (
          <p
            role={result.ok ? 'status' : 'alert'}
            data-testid="pull-result"
            className={result.ok ? 'text-emerald-400' : 'text-red-400'}
          >
            {result.text}
          </p>
        )}
        <div className="flex justify-end gap-2">
          {running && (
            <Button variant="danger" disabled={cancelling} onClick={cancel}>
              {cancelling ? 'Cancelling…' : 'Cancel pull'}
            </Button>
          )}
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" disabled={running || trimmed === '' || invalid !== null}>
            {running ? 'Pulling…' : 'Pull'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The overall bar, the summary, and one line per layer. */
function PullProgressView({ progress }: { progress: Progress }) {
  return (
    <div className="space-y-2" data-testid="pull-progress">
      <div
        role="progressbar"
        aria-valuenow={progress.overall_progress}
        aria-valuemin={0}
        aria-valuemax={100}
        className="h-2 overflow-hidden rounded bg-slate-800"
      >
        <div className="h-full bg-accent" style={{ width: `${progress.overall_progress}%` }} />
      </div>
      <p className="text-slate-300">
        {progress.summary}
        {progress.speed_mbps !== null && progress.speed_mbps > 0
          ? ` · ${progress.speed_mbps} MB/s`
          : ''}
      </p>
      <ul className="max-h-48 space-y-1 overflow-y-auto text-xs text-slate-400">
        {progress.layers.map((l) => (
          <li key={l.id} className="flex justify-between gap-2">
            <code>{l.id.slice(0, 12)}</code>
            <span>
              {l.status}
              {l.total > 0 ? ` · ${formatBytes(l.total)}` : ''} · {l.percent}%
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
