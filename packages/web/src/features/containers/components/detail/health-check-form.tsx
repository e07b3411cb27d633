import {
  CONTAINER_IP_PLACEHOLDER,
  HEALTH_CHECK_BOUNDS,
  type HealthCheckBounded,
  type HealthCheckMethod,
} from '@berth/contracts';
import { Info } from 'lucide-react';
import type { Dispatch, ReactNode, SetStateAction } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { cn } from '@/lib/cn';
import type { HealthCheckFormValues } from '../../lib/health-check-form';

type Values = HealthCheckFormValues;

/** The Health Check tab's Configuration section and the help beneath it. */
export function HealthCheckForm({
  form,
  setForm,
}: {
  form: Values;
  setForm: Dispatch<SetStateAction<Values>>;
}) {
  const set = <K extends keyof Values>(key: K, value: Values[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const number = (field: HealthCheckBounded, label: string, disabled = false) => (
    <NumberField
      value={form.numbers[field]}
      field={field}
      label={label}
      disabled={disabled}
      onChange={(value) => setForm((f) => ({ ...f, numbers: { ...f.numbers, [field]: value } }))}
    />
  );
  return (
    <section className="grid grid-cols-1 gap-4 rounded-lg border border-slate-800 p-4 lg:grid-cols-2">
      <h3 className="text-sm font-semibold text-slate-200 lg:col-span-2">Configuration</h3>
      <Switch
        label="Enable health check"
        checked={form.enabled}
        onCheckedChange={(v) => set('enabled', v)}
        className="text-sm text-slate-200 lg:col-span-2"
      >
        Enable HTTP health check
      </Switch>
      <Field label="URL" htmlFor="hc-url" wide>
        <Input
          id="hc-url"
          value={form.url}
          placeholder={`http://${CONTAINER_IP_PLACEHOLDER}:8080/health`}
          onChange={(e) => set('url', e.target.value)}
        />
      </Field>
      <Field label="Method" htmlFor="hc-method">
        <Select
          id="hc-method"
          value={form.method}
          onChange={(e) => set('method', e.target.value as HealthCheckMethod)}
        >
          <option value="GET">GET</option>
          <option value="POST">POST</option>
          <option value="HEAD">HEAD</option>
        </Select>
      </Field>
      <Field label="Expected status codes" htmlFor="hc-codes" hint="200, 200-299 or 200,201,204">
        <Input
          id="hc-codes"
          value={form.expected_status_codes}
          onChange={(e) => set('expected_status_codes', e.target.value)}
        />
      </Field>
      {number('timeout_seconds', 'Timeout (seconds)')}
      {number('check_interval_seconds', 'Check interval (seconds)')}
      <div className="flex flex-col gap-2 text-sm text-slate-200">
        <Switch
          label="Follow redirects"
          checked={form.follow_redirects}
          onCheckedChange={(v) => set('follow_redirects', v)}
        >
          Follow redirects
        </Switch>
        <Switch
          label="Verify SSL"
          checked={form.verify_ssl}
          onCheckedChange={(v) => set('verify_ssl', v)}
        >
          Verify SSL certificate
        </Switch>
      </div>
      <div />
      <JsonField
        label="Headers (JSON)"
        id="hc-headers"
        hint='{"X-Api-Key": "…"}; stored encrypted and shown masked; {} removes them'
        value={form.headers_json}
        onChange={(v) => set('headers_json', v)}
      />
      <JsonField
        label="Authentication (JSON)"
        id="hc-auth"
        hint='{"type":"basic","username":"…","password":"…"} or {"type":"bearer","token":"…"}'
        value={form.auth_config_json}
        onChange={(v) => set('auth_config_json', v)}
      />
      {number('failure_threshold', 'Failure threshold')}
      {number('success_threshold', 'Success threshold')}
      <Switch
        label="Auto-restart on failure"
        checked={form.auto_restart_on_failure}
        onCheckedChange={(v) => set('auto_restart_on_failure', v)}
        className="text-sm text-slate-200 lg:col-span-2"
      >
        Auto-restart the container when it turns unhealthy
      </Switch>
      {number('max_restart_attempts', 'Max restart attempts', !form.auto_restart_on_failure)}
      {number(
        'restart_retry_delay_seconds',
        'Retry delay (seconds)',
        !form.auto_restart_on_failure,
      )}
    </section>
  );
}

function Field({
  label,
  htmlFor,
  hint,
  wide,
  children,
}: {
  label: string;
  htmlFor: string;
  hint?: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={cn(wide === true && 'lg:col-span-2')}>
      <Label htmlFor={htmlFor}>{label}</Label>
      {children}
      {hint !== undefined && <p className="mt-1 text-xs text-slate-500">{hint}</p>}
    </div>
  );
}

function NumberField({
  value,
  field,
  label,
  onChange,
  disabled,
}: {
  value: string;
  field: HealthCheckBounded;
  label: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  const { min, max } = HEALTH_CHECK_BOUNDS[field];
  const id = `hc-${field}`;
  return (
    <Field label={label} htmlFor={id} hint={`${min}–${max}`}>
      <Input
        id={id}
        type="number"
        min={min}
        max={max}
        disabled={disabled}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}

/** A JSON object typed as text (headers, auth); the server checks and seals it. */
function JsonField({
  label,
  id,
  hint,
  value,
  onChange,
}: {
  label: string;
  id: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={label} htmlFor={id} hint={hint}>
      <textarea
        id={id}
        rows={2}
        className="w-full rounded-md border border-slate-700 bg-slate-900 px-3 py-2 font-mono text-xs text-slate-100"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}

export function HelpBox() {
  return (
    <aside className="rounded-lg border border-sky-900 bg-sky-950/30 p-4 text-sm text-slate-300">
      <h3 className="mb-2 flex items-center gap-2 font-semibold text-sky-300">
        <Info className="h-4 w-4" aria-hidden /> About HTTP Health Checks
      </h3>
      <ul className="list-disc space-y-1 pl-5">
        <li>
          Berth calls the URL from its own server at the check interval and compares the answer's
          status with the expected codes.
        </li>
        <li>
          The container turns unhealthy after the failure threshold of consecutive failures and
          healthy again after the success threshold of consecutive successes.
        </li>
        <li>
          With auto-restart on, Berth restarts an unhealthy container after the retry delay, at most
          the max restart attempts per unhealthy episode, and never more than 12 times in 10
          minutes. A container stopped by a user is never restarted.
        </li>
        <li>
          Use {CONTAINER_IP_PLACEHOLDER} in the URL for the container's own address, or a port it
          publishes on its host.
        </li>
      </ul>
    </aside>
  );
}
