import type { ExecRecordingSummary } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorText } from '@/lib/api-client';
import { formatStamp } from '@/lib/format';
import { execRecordingQueryOptions, execRecordingsQueryOptions } from '../api/recordings-api';
import { readableInput } from '../lib/recording-text';
import { LogRow, LogTable, LogTimeCell, type LogColumn } from '@/components/log-table';

const PAGE_SIZE = 50;

const where = (r: ExecRecordingSummary) =>
  `${r.container_name ?? r.container_id} on ${r.host_name ?? r.host_id}`;

const RECORDING_COLUMNS: LogColumn[] = [
  { label: 'STARTED' },
  { label: 'USER' },
  { label: 'CONTAINER' },
  { label: 'COMMAND' },
  { label: 'TYPED' },
];

/**
 * What was typed in container shells while Settings → System had recording on, newest
 * first; a row opens the session's input as it was typed.
 */
export function ShellRecordings() {
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<ExecRecordingSummary | null>(null);
  const answer = useQuery(execRecordingsQueryOptions(PAGE_SIZE, page * PAGE_SIZE));
  const rows = answer.data?.recordings ?? [];
  const total = answer.data?.total ?? 0;
  const empty = answer.isError
    ? `Failed to load the recordings: ${errorText(answer.error)}`
    : answer.isPending
      ? 'Loading the recordings…'
      : 'No shell recordings. Turn on "Record what is typed in shells" in Settings → System to keep them.';
  return (
    <>
      <LogTable columns={RECORDING_COLUMNS} testId="shell-recordings" fixed={false}>
        {rows.map((r) => (
          <LogRow key={r.id} onOpen={() => setOpen(r)}>
            <LogTimeCell iso={r.started_at}>
              {/* The row opens on a click; the time is its keyboard's way in. */}
              <button type="button" className="hover:text-white" onClick={() => setOpen(r)}>
                {formatStamp(r.started_at)}
              </button>
            </LogTimeCell>
            <td className="px-3 text-slate-100">{r.actor}</td>
            <td className="px-3 text-xs text-slate-300">{where(r)}</td>
            <td className="px-3 font-mono text-xs text-slate-200">{r.command}</td>
            <td className="px-3 text-xs text-slate-400 tabular-nums">
              {r.length} characters{r.truncated ? ' (cut short)' : ''}
            </td>
          </LogRow>
        ))}
        {rows.length === 0 && (
          <tr>
            <td colSpan={5} className="px-4 py-8 text-center text-slate-400">
              {empty}
            </td>
          </tr>
        )}
      </LogTable>
      {total > PAGE_SIZE && (
        <div className="mt-3 flex justify-end gap-2">
          <Button size="sm" variant="ghost" disabled={page === 0} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={(page + 1) * PAGE_SIZE >= total}
            onClick={() => setPage(page + 1)}
          >
            Next
          </Button>
        </div>
      )}
      {open !== null && <RecordingDialog summary={open} onClose={() => setOpen(null)} />}
    </>
  );
}

function RecordingDialog({
  summary,
  onClose,
}: {
  summary: ExecRecordingSummary;
  onClose: () => void;
}) {
  const recording = useQuery(execRecordingQueryOptions(summary.id));
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Shell recording" size="lg">
      <div className="space-y-3 text-sm">
        <p className="text-slate-300">
          {summary.actor} ran <code className="text-slate-100">{summary.command}</code> in{' '}
          {where(summary)}, {formatStamp(summary.started_at)} – {formatStamp(summary.ended_at)}
        </p>
        {summary.truncated && (
          <p className="text-amber-300">
            The session typed more than a recording keeps; only its beginning is here.
          </p>
        )}
        {recording.isError ? (
          <p role="alert" className="text-red-400">
            {errorText(recording.error)}
          </p>
        ) : (
          <pre
            data-testid="recording-input"
            className="max-h-[60vh] overflow-auto rounded-lg bg-slate-950 p-3 font-mono text-xs whitespace-pre-wrap text-slate-100"
          >
            {recording.data === undefined ? 'Loading…' : readableInput(recording.data.input)}
          </pre>
        )}
        <p className="text-xs text-slate-500">
          ⏎ Enter · ⌫ Backspace · ⇥ Tab · ^C a control key · ⎋ an escape sequence
        </p>
      </div>
    </Dialog>
  );
}
