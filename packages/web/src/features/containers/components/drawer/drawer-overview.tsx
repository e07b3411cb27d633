import { DERIVED_TAG_PATTERN, type Container } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Info } from 'lucide-react';
import { InfoRow, PerfTile, Section } from '@/components/detail-section';
import { TagsEditor } from '@/components/tags-editor';
import { containerKeyOf } from '@berth/contracts';
import { formatBytes, formatPercent, formatRate } from '@/lib/format';
import { useContainerSparklinesShown } from '@/lib/live/live-provider';
import { containerSparklinesQueryOptions } from '@/lib/queries';
import { usePatchContainerTags } from '../../api/container-settings-api';
import { parseTagList } from '../../lib/tag-list';
import { PolicyRows } from '../container-settings-controls';
import { WebUiLink } from '../web-ui-link';

const NO_HISTORY: number[] = [];

/** should_run makes a stopped container a warning; on_demand only informs. */
function DesiredStateNote({ container: c }: { container: Container }) {
  if (c.state === 'running') return null;
  if (c.desired_state === 'should_run') {
    return (
      <p
        role="status"
        className="mb-4 flex items-center gap-2 rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm text-amber-200"
      >
        <AlertTriangle className="h-4 w-4 shrink-0" /> Should be running but is exited!
      </p>
    );
  }
  if (c.desired_state === 'on_demand') {
    return (
      <p className="mb-4 flex items-center gap-2 rounded-md border border-sky-500/30 bg-sky-500/10 px-3 py-2 text-sm text-sky-200">
        <Info className="h-4 w-4 shrink-0" /> On-demand: this container runs only when needed.
      </p>
    );
  }
  return null;
}

/** The drawer's Overview tab: state, settings, performance, details and tags. */
export function DrawerOverview({ container: c }: { container: Container }) {
  useContainerSparklinesShown();
  const sparklines = useQuery(containerSparklinesQueryOptions()).data?.[containerKeyOf(c)];
  const patch = usePatchContainerTags();
  const derived = c.tags.filter((t) => DERIVED_TAG_PATTERN.test(t));
  const own = c.tags.filter((t) => !DERIVED_TAG_PATTERN.test(t));
  const running = c.state === 'running';
  return (
    <>
      <DesiredStateNote container={c} />
      <Section title="Settings">
        <dl>
          <PolicyRows container={c} />
        </dl>
      </Section>
      {running && (
        <Section title="Performance">
          <div className="grid grid-cols-3 gap-4" data-testid="container-drawer-performance">
            <PerfTile
              label="CPU"
              value={formatPercent(c.cpu_percent)}
              values={sparklines?.cpu ?? NO_HISTORY}
              max={100}
            />
            <PerfTile
              label="Memory"
              value={`${formatPercent(c.memory_percent)} · ${formatBytes(c.memory_usage)}`}
              values={sparklines?.mem ?? NO_HISTORY}
              max={100}
            />
            <PerfTile
              label="Network"
              value={formatRate(c.net_bytes_per_sec)}
              values={sparklines?.net ?? NO_HISTORY}
            />
          </div>
        </Section>
      )}
      <Section title="Details">
        <dl>
          <InfoRow label="Image">{c.image}</InfoRow>
          <InfoRow label="ID">
            <span className="font-mono text-xs">{c.short_id}</span>
          </InfoRow>
          <InfoRow label="Status">{c.status}</InfoRow>
          <InfoRow label="Restart policy">{c.restart_policy ?? '—'}</InfoRow>
          <InfoRow label="Ports">{c.ports.length > 0 ? c.ports.join(', ') : '—'}</InfoRow>
          {c.web_ui_url !== null && (
            <InfoRow label="WebUI">
              <WebUiLink url={c.web_ui_url} />
            </InfoRow>
          )}
        </dl>
      </Section>
      <Section title="Tags">
        <TagsEditor
          label="Container tags"
          tags={own}
          locked={derived}
          placeholder="web, db, prod"
          parse={parseTagList}
          saving={patch.isPending}
          onSave={async (add, remove) => {
            try {
              await patch.mutateAsync({ container: c, value: { add, remove } });
              return true;
            } catch {
              return false;
            }
          }}
        />
      </Section>
    </>
  );
}
