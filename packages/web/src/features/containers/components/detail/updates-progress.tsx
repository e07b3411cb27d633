import type { LiveMessageOf } from '@berth/contracts';
import { cn } from '@/lib/cn';

const LAYER_LIST = 15;

/** A layer's colour by its pull status. */
export function layerColour(status: string): string {
  if (status === 'Pull complete' || status === 'Download complete') return 'text-green-400';
  if (status === 'Already exists') return 'text-green-700';
  if (status === 'Downloading') return 'text-blue-400';
  if (status === 'Extracting') return 'text-yellow-400';
  if (status === 'Verifying Checksum') return 'text-purple-400';
  return 'text-slate-400';
}

export type Stage = LiveMessageOf<'container_update_progress'>['data'];
export type Layers = LiveMessageOf<'container_update_layer_progress'>['data'];

/**
 * The pull's figures while the update pulls; after it, only its final ones (100 %). A line
 * from the middle of the pull ("Starting pull...") must not stay up through the later stages.
 */
export const pullLine = (stage: Stage, layers: Layers | null): Layers | null =>
  layers !== null && (stage.stage === 'pulling' || layers.overall_progress >= 100) ? layers : null;

/** An update's live progress: stage, bar, and the first layers. */
export function ProgressPanel({
  stage,
  layers,
  open,
  onToggle,
}: {
  stage: Stage;
  layers: Layers | null;
  open: boolean;
  onToggle: () => void;
}) {
  const pull = pullLine(stage, layers);
  const list = pull?.layers ?? [];
  return (
    <section
      data-testid="update-progress"
      className="rounded-lg border border-sky-800 bg-sky-950/30 p-4"
    >
      <div className="flex items-center justify-between">
        <p data-testid="update-progress-message">{stage.message}</p>
        <span className="tabular-nums text-slate-300">{stage.progress}%</span>
      </div>
      <div className="mt-2 h-2 overflow-hidden rounded bg-slate-800">
        <div
          className="h-full bg-sky-500 transition-all"
          style={{ width: `${Math.min(100, stage.progress)}%` }}
        />
      </div>
      {pull !== null && (
        <div className="mt-3 text-xs">
          <button
            type="button"
            className="text-slate-300 underline"
            onClick={onToggle}
            data-testid="update-progress-detail"
          >
            {pull.summary}
            {pull.speed_mbps !== null && ` · ${pull.speed_mbps} MB/s`}
          </button>
          {open && (
            <ul className="mt-2 space-y-0.5 font-mono" data-testid="layer-list">
              {list.slice(0, LAYER_LIST).map((l) => (
                <li key={l.id} className={cn('flex gap-3', layerColour(l.status))}>
                  <span>{l.id.slice(0, 12)}</span>
                  <span>{l.status}</span>
                  {l.status === 'Downloading' && <span>{l.percent}%</span>}
                </li>
              ))}
              {list.length > LAYER_LIST && (
                <li className="text-slate-400">and {list.length - LAYER_LIST} more layers</li>
              )}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
