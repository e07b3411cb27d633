import { healthCheckConfigBodySchema, type Container, type HealthCheck } from '@berth/contracts';
import { Activity } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/form-error';
import {
  defaultHealthCheck,
  useHealthCheck,
  useHealthCheckLiveRefresh,
  useSaveHealthCheck,
  useTestHealthCheck,
} from '../../api/health-check-api';
import {
  bodyOf,
  formOf,
  testBodyOf,
  type HealthCheckFormValues,
} from '../../lib/health-check-form';
import { HealthCheckForm, HelpBox } from './health-check-form';
import { AddressNote, HealthStats, StatusBanner } from './health-check-status';

/** The Health Check tab: banner, Check Now and Save Changes, stats, form, help. */
export function HealthCheckTab({ container: c }: { container: Container }) {
  useHealthCheckLiveRefresh(c);
  const query = useHealthCheck(c);
  if (query.isPending) return <p className="text-sm text-slate-400">Loading health check…</p>;
  // On failure a disabled default is used.
  const check = query.data ?? defaultHealthCheck(c);
  return <HealthCheckBody key={check.configured ? 'saved' : 'new'} container={c} check={check} />;
}

function HealthCheckBody({ container: c, check }: { container: Container; check: HealthCheck }) {
  const [form, setForm] = useState<HealthCheckFormValues>(() => formOf(check));
  const [error, setError] = useState<string | null>(null);
  const save = useSaveHealthCheck(c);
  const test = useTestHealthCheck(c);

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
    test.mutate(testBodyOf(form));
  };

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
      <HealthStats check={check} />
      <AddressNote check={check} url={form.url} />
      {check.paused_reason !== null && (
        <p className="text-sm text-amber-300" data-testid="health-paused">
          {check.paused_reason}
        </p>
      )}
      <FormError message={error} />
      <HealthCheckForm form={form} setForm={setForm} />
      <HelpBox />
    </div>
  );
}
