import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { errorText } from '@/lib/api-client';
import { useTestConnection } from '../api/hosts-api';
import { toPayload, type HostFormValues } from './use-host-form';

const SUCCESS_MS = 5000;

/** Test Connection with its success and failure texts; the success line stays 5 s. */
export function TestConnection({
  values,
  storedSecure,
}: {
  values: HostFormValues;
  storedSecure: boolean;
}) {
  const test = useTestConnection();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    if (result?.ok !== true) return undefined;
    const timer = setTimeout(() => setResult(null), SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [result]);

  const run = async () => {
    if (values.url.trim() === '') {
      setResult({ ok: false, text: 'Please enter an address/endpoint first' });
      return;
    }
    const chosen = [values.tls_ca, values.tls_cert, values.tls_key].filter(
      (v) => v !== null,
    ).length;
    const tls = values.mtls && !values.url.trim().startsWith('unix://');
    if (tls && chosen < 3 && !(storedSecure && chosen === 0)) {
      setResult({ ok: false, text: 'All three certificates are required for mTLS connection' });
      return;
    }
    try {
      const r = await test.mutateAsync(toPayload(values));
      setResult({
        ok: true,
        text: `Connection successful! Docker ${r.docker_version} (API ${r.api_version})`,
      });
    } catch (err) {
      setResult({ ok: false, text: errorText(err, 'Connection failed') });
    }
  };

  return (
    <div className="space-y-2">
      <Button variant="secondary" size="sm" onClick={() => void run()} disabled={test.isPending}>
        {test.isPending ? 'Testing...' : 'Test Connection'}
      </Button>
      {result !== null && (
        <p
          role="status"
          className={result.ok ? 'text-sm text-emerald-300' : 'text-sm text-red-300'}
        >
          {result.text}
        </p>
      )}
    </div>
  );
}
