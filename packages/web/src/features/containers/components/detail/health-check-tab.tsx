import {
  CONTAINER_IP_PLACEHOLDER,
  HEALTH_CHECK_BOUNDS,
  healthCheckConfigBodySchema,
  type Container,
  type HealthCheck,
  type HealthCheckBounded,
  type HealthCheckMethod,
} from '@berth/contracts';
import { Activity, CheckCircle2, HelpCircle, Info, XCircle } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { cn } from '@/lib/cn';
import { formatAgo } from '@/lib/format';
import {
  defaultHealthCheck,
  useHealthCheck,
  useHealthCheckLiveRefresh,
  useSaveHealthCheck,
  useTestHealthCheck,
} from '../../api/health-check-api';

/** The form's values; numbers stay text while typed. */
interface Form {
  enabled: boolean;
  url: string;
  method: HealthCheckMethod;
  expected_status_codes: string;
  follow_redirects: boolean;
  verify_ssl: boolean;
  headers_json: string;
  auth_config_json: string;
  auto_restart_on_failure: boolean;
  numbers: Record<HealthCheckBounded, string>;
}

const NUMBER_FIELDS = Object.keys(HEALTH_CHECK_BOUNDS) as HealthCheckBounded[];

const formOf = (h: HealthCheck): Form => ({
  enabled: h.enabled,
  url: h.url,
  method: h.method,
  expected_status_codes: h.expected_status_codes,
  follow_redirects: h.follow_redirects,
  verify_ssl: h.verify_ssl,
  headers_json: h.headers_json ?? '',
  auth_config_json: h.auth_config_json ?? '',
  auto_restart_on_failure: h.auto_restart_on_failure,
  numbers: Object.fromEntries(NUMBER_FIELDS.map((k) => [k, String(h[k])])) as Form['numbers'],
});

const num = (v: string) => (v.trim() === '' ? Number.NaN : Number(v));

/** The body of a save; headers and auth left blank keep what is stored. */
const bodyOf = (f: Form) => ({
  enabled: f.enabled,
  url: f.url.trim(),
  method: f.method,
  expected_status_codes: f.expected_status_codes.trim(),
  follow_redirects: f.follow_redirects,
  verify_ssl: f.verify_ssl,
  // Blank or masked keeps what is stored; {} removes it.
  headers_json: f.headers_json,
  auth_config_json: f.auth_config_json,
  auto_restart_on_failure: f.auto_restart_on_failure,
  ...(Object.fromEntries(NUMBER_FIELDS.map((k) => [k, num(f.numbers[k])])) as Record<
    HealthCheckBounded,
    number
  >),
});

/** Spec 2 §2.4 Health Check tab: banner, Check Now and Save Changes, stats, form, help. */
export function HealthCheckTab({ container: c }: { container: Container }) {
  useHealthCheckLiveRefresh(c);
  const query = useHealthCheck(c);
  if (query.isPending) return <p className="text-sm text-slate-400">Loading health check…</p>;
  // On failure a disabled default is used (spec 2 §7).
  const check = query.data ?? defaultHealthCheck(c);
  return <HealthCheckBody key={check.configured ? 'saved' : 'new'} container={c} check={check} />;
}

function HealthCheckBody({ container: c, check }: { container: Container; check: HealthCheck }) {
  const [form, setForm] = useState<Form>(() => formOf(check));
  const [error, setError] = useState<string | null>(null);
  const save = useSaveHealthCheck(c);
  const test = useTestHealthCheck(c);
  const set = <K extends keyof Form>(key: K, value: Form[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const setNumber = (key: HealthCheckBounded, value: string) =>
    setForm((f) => ({ ...f, numbers: { ...f.numbers, [key]: value } }));

  const onSave = () => {
    if (form.enabled && form.url.trim() === '') {
      setError('Please enter a URL to check');
      toast.error('Please enter a URL to check');
      return;
    }
    const parsed = healthCheckConfigBodySchema.safeParse(bodyOf(form));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const message = issue?.message ?? 'Invalid configuration';
      setError(message);
      toast.error('Failed to save configuration', { description: message });
      return;
    }
    setError(null);
    save.mutate(bodyOf(form), {
      onSuccess: (saved) => setForm(formOf(saved)),
      onError: (err) => setError(err instanceof Error ? err.message : 'Unknown error'),
    });
  };

  const onTest = () => {
    if (form.url.trim() === '') {
      toast.error('URL is required', { description: 'Please enter a URL to test' });
      return;
    }
    const body = bodyOf(form);
    test.mutate({
      url: body.url,
      method: body.method,
      expected_status_codes: body.expected_status_codes,
      timeout_seconds: body.timeout_seconds,
      follow_redirects: body.follow_redirects,
      verify_ssl: body.verify_ssl,
      headers_json: body.headers_json,
      auth_config_json: body.auth_config_json,
    });
  };

  const checked = check.enabled && check.last_checked_at !== null;
  return (
    <div className="space-y-5" data-testid="health-check-tab">
      <div className="flex flex-wrap items-start gap-3">
        <StatusBanner check={check} />
        <div className="ml-auto flex gap-2">
          <Button
            variant="secondary"
            onClick={onTest}
            disabled={!check.configured || test.isPending}
            title={check.configured ? undefined : 'Save a configuration first'}
          >
            <Activity className="h-4 w-4" aria-hidden />
            {test.isPending ? 'Checking…' : 'Check Now'}
          </Button>
          <Button onClick={onSave} disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save Changes'}
          </Button>
        </div>
      </div>

      {checked && (
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
      )}

      <AddressNote check={check} url={form.url} />
      {check.paused_reason !== null && (
        <p className="text-sm text-amber-300" data-testid="health-paused">
          {check.paused_reason}
        </p>
      )}
      <FormError message={error} />

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
        <NumberField
          form={form}
          field="timeout_seconds"
          label="Timeout (seconds)"
          onChange={setNumber}
        />
        <NumberField
          form={form}
          field="check_interval_seconds"
          label="Check interval (seconds)"
          onChange={setNumber}
        />
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
        <Field
          label="Headers (JSON)"
          htmlFor="hc-headers"
          hint='{"X-Api-Key": "…"}; stored encrypted and shown masked; {} removes them'
        >
          <textarea
            id="hc-headers"
            rows={2}
            className="w-full rounded-md border border-slate-700 bg-slate-900 px-3 py-2 font-mono text-xs text-slate-100"
            value={form.headers_json}
            onChange={(e) => set('headers_json', e.target.value)}
          />
        </Field>
        <Field
          label="Authentication (JSON)"
          htmlFor="hc-auth"
          hint='{"type":"basic","username":"…","password":"…"} or {"type":"bearer","token":"…"}'
        >
          <textarea
            id="hc-auth"
            rows={2}
            className="w-full rounded-md border border-slate-700 bg-slate-900 px-3 py-2 font-mono text-xs text-slate-100"
            value={form.auth_config_json}
            onChange={(e) => set('auth_config_json', e.target.value)}
          />
        </Field>
        <NumberField
          form={form}
          field="failure_threshold"
          label="Failure threshold"
          onChange={setNumber}
        />
        <NumberField
          form={form}
          field="success_threshold"
          label="Success threshold"
          onChange={setNumber}
        />
        <Switch
          label="Auto-restart on failure"
          checked={form.auto_restart_on_failure}
          onCheckedChange={(v) => set('auto_restart_on_failure', v)}
          className="text-sm text-slate-200 lg:col-span-2"
        >
          Auto-restart the container when it turns unhealthy
        </Switch>
        <NumberField
          form={form}
          field="max_restart_attempts"
          label="Max restart attempts"
          onChange={setNumber}
          disabled={!form.auto_restart_on_failure}
        />
        <NumberField
          form={form}
          field="restart_retry_delay_seconds"
          label="Retry delay (seconds)"
          onChange={setNumber}
          disabled={!form.auto_restart_on_failure}
        />
      </section>

      <HelpBox />
    </div>
  );
}

function StatusBanner({ check }: { check: HealthCheck }) {
  const status = check.enabled ? check.current_status : 'unknown';
  const look = {
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
  }[status];
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

/** Which address the check calls: the container's own or one on Berth's side. */
function AddressNote({ check, url }: { check: HealthCheck; url: string }) {
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

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-800 bg-slate-900/60 px-4 py-3">
      <div className="text-xs text-slate-400">{label}</div>
      <div className="mt-1 text-lg font-semibold text-slate-100">{children}</div>
    </div>
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
  form,
  field,
  label,
  onChange,
  disabled,
}: {
  form: Form;
  field: HealthCheckBounded;
  label: string;
  onChange: (field: HealthCheckBounded, value: string) => void;
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
        value={form.numbers[field]}
        onChange={(e) => onChange(field, e.target.value)}
      />
    </Field>
  );
}

function HelpBox() {
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
