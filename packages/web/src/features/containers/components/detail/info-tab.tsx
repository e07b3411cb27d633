import type { Container } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { InfoRow } from '@/components/detail-section';
import { LiveChart } from '@/components/live-chart';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { stateLabel } from '@/lib/container-state';
import { containerKeyOf } from '@berth/contracts';
import { formatRate } from '@/lib/format';
import { useContainerSparklinesShown } from '@/lib/live/live-provider';
import { containerSparklinesQueryOptions, settingsQueryOptions } from '@/lib/queries';
import { useSetWebUiUrl } from '../../api/container-settings-api';
import { PolicyRows } from '../container-settings-controls';
import { ContainerTagsEditor } from './container-tags-editor';
import { usePhone } from '@/hooks/use-breakpoint';
import { WebUiLink } from '../web-ui-link';

/** These variables say nothing about the container and are hidden. */
const HIDDEN_ENV = new Set(['PATH', 'HOME', 'HOSTNAME', 'TERM']);
const SMOOTHING = 0.3;
// Chart formatters are module-level: a new function per render would rebuild the chart.
// Small values keep a decimal, or a 0-1.5 % axis would read 0%, 1%, 1%.
const percent = (v: number) => `${Number.isInteger(v) || v >= 10 ? v.toFixed(0) : v.toFixed(1)}%`;
const rate = (v: number) => formatRate(v);

/** Exponential smoothing (factor 0.3) so the detail charts do not jitter. */
const smooth = (values: readonly number[]) => {
  const out: number[] = [];
  for (const v of values)
    out.push(out.length === 0 ? v : SMOOTHING * v + (1 - SMOOTHING) * (out.at(-1) ?? v));
  return out;
};

export function InfoTab({ container: c }: { container: Container }) {
  const webUi = useSetWebUiUrl();
  // 44 px controls on a phone.
  const size = usePhone() ? 'touch' : 'sm';
  const [url, setUrl] = useState(c.web_ui_url ?? '');
  useContainerSparklinesShown();
  const sparklines = useQuery(containerSparklinesQueryOptions()).data?.[containerKeyOf(c)];
  const interval = useQuery(settingsQueryOptions()).data?.polling_interval ?? 2;
  const env = Object.entries(c.env).filter(([k]) => !HIDDEN_ENV.has(k));
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <dl>
        <InfoRow label="State">{stateLabel(c)}</InfoRow>
        <InfoRow label="Restart policy">{c.restart_policy ?? '—'}</InfoRow>
        <PolicyRows container={c} />
        <InfoRow label="WebUI">
          <div className="flex gap-2">
            <Input
              type="url"
              aria-label="WebUI URL"
              size={size}
              placeholder="http://host:port/"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
            <Button
              size={size}
              variant="secondary"
              onClick={() =>
                webUi.mutate({ container: c, value: url.trim() === '' ? null : url.trim() })
              }
            >
              Save
            </Button>
          </div>
          {c.web_ui_url !== null && <WebUiLink url={c.web_ui_url} className="text-xs" />}
        </InfoRow>
        <InfoRow label="Tags">
          <ContainerTagsEditor container={c} />
        </InfoRow>
        <InfoRow label="Image">{c.image}</InfoRow>
        <InfoRow label="Ports">{c.ports.length > 0 ? c.ports.join(', ') : '—'}</InfoRow>
        <InfoRow label="Volumes">{c.volumes.length > 0 ? c.volumes.join(', ') : '—'}</InfoRow>
        <InfoRow label="Environment">
          {env.length === 0 ? (
            '—'
          ) : (
            <ul className="font-mono text-xs" data-testid="container-env">
              {env.map(([k, v]) => (
                <li key={k}>
                  {k}={v}
                </li>
              ))}
            </ul>
          )}
        </InfoRow>
      </dl>
      <div className="space-y-3">
        <LiveChart
          title="CPU"
          values={smooth(sparklines?.cpu ?? [])}
          intervalSeconds={interval}
          color="#38bdf8"
          format={percent}
        />
        <LiveChart
          title="Memory"
          values={smooth(sparklines?.mem ?? [])}
          intervalSeconds={interval}
          color="#a78bfa"
          format={percent}
          max={100}
        />
        <LiveChart
          title="Network I/O"
          values={smooth(sparklines?.net ?? [])}
          intervalSeconds={interval}
          color="#34d399"
          format={rate}
        />
      </div>
    </div>
  );
}
