import {
  parseAllowedAddress,
  PROMETHEUS_METRICS_PATH,
  type PrometheusSettings,
} from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { errorText } from '@/lib/api-client';
import { prometheusQueryOptions, useSavePrometheus } from '../api/prometheus-api';
import { DraftActions, SettingRow, SettingsSection } from '../components/setting-row';

const splitAddresses = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((a) => a.trim())
    .filter((a) => a !== '');

/** A prometheus.yml job for this Berth, with a placeholder where a `read` API key goes. */
function scrapeConfig(url: URL): string {
  return [
    'scrape_configs:',
    '  - job_name: berth',
    `    scheme: ${url.protocol.replace(':', '')}`,
    `    metrics_path: ${PROMETHEUS_METRICS_PATH}`,
    '    authorization:',
    '      type: Bearer',
    '      credentials: <a read API key from Settings → API Keys>',
    '    static_configs:',
    `      - targets: ['${url.host}']`,
  ].join('\n');
}

/** Settings → Integrations → Prometheus: the switch, who may scrape, and how to point Prometheus here. */
export function PrometheusSection() {
  const query = useQuery(prometheusQueryOptions());
  const save = useSavePrometheus();
  const [draft, setDraft] = useState<{ enabled: boolean; addresses: string } | null>(null);
  if (query.data === undefined)
    return (
      <SettingsSection title="Prometheus">
        <p className="py-3 text-sm text-slate-400">
          {query.isError ? 'Failed to load the Prometheus settings.' : 'Loading…'}
        </p>
      </SettingsSection>
    );
  const stored: PrometheusSettings = query.data;
  const form = draft ?? { enabled: stored.enabled, addresses: stored.allowed_addresses.join(', ') };
  const addresses = splitAddresses(form.addresses);
  const bad = addresses.find((a) => parseAllowedAddress(a) === null);
  const url = new URL(PROMETHEUS_METRICS_PATH, window.location.origin);
  const submit = () =>
    save.mutate(
      { enabled: form.enabled, allowed_addresses: addresses },
      {
        onSuccess: () => {
          setDraft(null);
          toast.success('Prometheus settings saved');
        },
        onError: (err) =>
          toast.error('Failed to save Prometheus settings', { description: errorText(err) }),
      },
    );

  return (
    <SettingsSection title="Prometheus">
      <div data-testid="prometheus-settings">
        <SettingRow
          label="Expose /metrics"
          description="Berth's own metrics and every host's and container's, in Prometheus's text format. Off: /metrics is not found."
        >
          <Switch
            label="Expose /metrics"
            checked={form.enabled}
            onCheckedChange={(on) => setDraft({ ...form, enabled: on })}
          >
            <span className="sr-only">Expose /metrics</span>
          </Switch>
        </SettingRow>
        <SettingRow
          label="Allowed addresses"
          htmlFor="prometheus-allowed-addresses"
          description="IP addresses or CIDR networks that may scrape without a key, separated by commas (10.0.0.5, 10.1.0.0/16, fd00::/8). Anyone else needs an API key of scope read or more."
        >
          <Input
            id="prometheus-allowed-addresses"
            fullWidth={false}
            className="w-72"
            autoComplete="off"
            placeholder="None: a key is always needed"
            aria-invalid={bad !== undefined}
            value={form.addresses}
            onChange={(e) => setDraft({ ...form, addresses: e.target.value })}
          />
        </SettingRow>
        {bad !== undefined && (
          <p className="pb-2 text-xs text-red-300" role="alert">
            “{bad}” is not an IP address or a CIDR network.
          </p>
        )}
        <SettingRow label="Scrape URL" description="Where Prometheus reads the metrics.">
          <code className="text-sm text-slate-200" data-testid="prometheus-scrape-url">
            {url.href}
          </code>
        </SettingRow>
        <div className="border-b border-slate-800 py-4">
          <p className="text-sm font-medium text-slate-100">prometheus.yml</p>
          <p className="mt-0.5 text-xs text-slate-400">
            A scrape job for this Berth; without a key, list Prometheus's address above and leave
            out the authorization.
          </p>
          <pre
            className="mt-2 overflow-x-auto rounded-md bg-slate-950 p-3 text-xs text-slate-300"
            data-testid="prometheus-scrape-config"
          >
            {scrapeConfig(url)}
          </pre>
        </div>
        <DraftActions
          dirty={draft !== null}
          saving={save.isPending}
          invalid={bad !== undefined}
          onDiscard={() => setDraft(null)}
          onSave={submit}
        />
      </div>
    </SettingsSection>
  );
}
