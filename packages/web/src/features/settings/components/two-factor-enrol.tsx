import { useState, type SyntheticEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorText } from '@/lib/api-client';
import { useConfirmEnrolment, useStartEnrolment } from '../api/two-factor-api';
import { RecoveryCodes } from './recovery-codes';

/**
 * Enrolment: a QR code (and the secret as text, for an app that cannot scan), then a code
 * from the app to confirm, then the recovery codes, shown once. `onDone` closes it.
 */
export function TwoFactorEnrol({
  onDone,
  onCancel,
}: {
  onDone: () => void;
  onCancel?: () => void;
}) {
  const start = useStartEnrolment();
  const confirm = useConfirmEnrolment();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  if (confirm.data !== undefined) {
    return (
      <div className="space-y-4">
        <p className="text-sm font-medium text-emerald-300">Two-factor sign-in is on.</p>
        <RecoveryCodes codes={confirm.data} />
        <div className="flex justify-end">
          <Button onClick={onDone}>I have saved my recovery codes</Button>
        </div>
      </div>
    );
  }

  if (start.data === undefined) {
    return (
      <div className="space-y-4">
        <p className="text-sm text-slate-300">
          You will need an authenticator app (such as Aegis, Google Authenticator, 1Password or
          Bitwarden) to scan a QR code.
        </p>
        <FormError message={start.isError ? errorText(start.error) : null} />
        <div className="flex justify-end gap-2">
          {onCancel !== undefined && (
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          )}
          <Button onClick={() => start.mutate()} disabled={start.isPending}>
            Set up two-factor
          </Button>
        </div>
      </div>
    );
  }

  const submit = async (e: SyntheticEvent) => {
    e.preventDefault();
    if (code.trim() === '') {
      setError('Enter the code your app shows');
      return;
    }
    try {
      await confirm.mutateAsync(code.trim());
    } catch (err) {
      setError(errorText(err));
    }
  };

  const { secret, qr_svg: svg } = start.data;
  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
      <p className="text-sm text-slate-300">Scan this QR code with your authenticator app.</p>
      <img
        src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`}
        alt="QR code for your authenticator app"
        className="mx-auto h-48 w-48 rounded-lg bg-white p-2"
      />
      <div>
        <p className="text-xs text-slate-400">Or type this key into the app:</p>
        <code
          data-testid="two-factor-secret"
          className="mt-1 block rounded bg-slate-950 px-2 py-1 font-mono text-sm break-all text-slate-100 select-all"
        >
          {secret}
        </code>
      </div>
      <div>
        <Label htmlFor="two-factor-confirm-code">Code from the app</Label>
        <Input
          id="two-factor-confirm-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            setError(null);
          }}
        />
      </div>
      <FormError message={error} />
      <div className="flex justify-end gap-2">
        {onCancel !== undefined && (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button type="submit" disabled={confirm.isPending}>
          Confirm
        </Button>
      </div>
    </form>
  );
}
