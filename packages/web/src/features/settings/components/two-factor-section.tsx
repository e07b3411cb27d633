import { useQuery } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormFooter } from '@/components/ui/form-footer';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorText } from '@/lib/api-client';
import {
  twoFactorStatusQueryOptions,
  useDisableTwoFactor,
  useRegenerateRecoveryCodes,
} from '../api/two-factor-api';
import { RecoveryCodes } from './recovery-codes';
import { SettingsSection } from './setting-row';
import { TwoFactorEnrol } from './two-factor-enrol';

const dateOf = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

type Open = 'enrol' | 'codes' | 'disable' | null;

/** Settings → Security: the signed-in user's own two-factor sign-in. */
export function TwoFactorSection() {
  const status = useQuery(twoFactorStatusQueryOptions());
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const s = status.data;
  return (
    <SettingsSection title="Two-factor sign-in">
      <p className="flex items-start gap-2 py-2 text-xs text-slate-400">
        <ShieldCheck className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden />
        <span>
          After your password, Berth asks for a code from an authenticator app. Ten recovery codes
          sign you in if you lose the app. Single sign-on leaves this to your provider.
        </span>
      </p>
      {status.isError ? (
        <p className="py-2 text-sm text-red-300">Failed to load: {errorText(status.error)}</p>
      ) : s === undefined ? (
        <p className="py-2 text-sm text-slate-400">Loading…</p>
      ) : s.enabled ? (
        <div className="space-y-3 py-2">
          <p className="text-sm text-slate-100" data-testid="two-factor-status">
            <span className="font-medium text-emerald-300">On</span>
            {s.enabled_at !== null && ` since ${dateOf(s.enabled_at)}`}
            {` · ${s.recovery_codes_left} recovery codes left`}
          </p>
          {s.required && (
            <p className="text-xs text-slate-400">Your role requires two-factor sign-in.</p>
          )}
          <div className="flex gap-2">
            <Button size="sm" variant="secondary" onClick={() => setOpen('codes')}>
              New recovery codes
            </Button>
            {!s.required && (
              <Button size="sm" variant="secondary" onClick={() => setOpen('disable')}>
                Turn off
              </Button>
            )}
          </div>
        </div>
      ) : (
        <div className="space-y-3 py-2">
          <p className="text-sm text-slate-100" data-testid="two-factor-status">
            <span className="font-medium text-slate-300">Off</span>
            {s.required && ' · your role requires it'}
          </p>
          <Button size="sm" onClick={() => setOpen('enrol')}>
            Turn on two-factor
          </Button>
        </div>
      )}
      {open === 'enrol' && (
        <Dialog open onOpenChange={close} title="Turn on two-factor sign-in">
          <TwoFactorEnrol onDone={close} onCancel={close} />
        </Dialog>
      )}
      {open === 'codes' && <NewCodesDialog onClose={close} />}
      {open === 'disable' && <DisableDialog onClose={close} />}
    </SettingsSection>
  );
}

function CodeField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <div>
      <Label htmlFor="two-factor-code">Code from your authenticator app</Label>
      <Input
        id="two-factor-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

function NewCodesDialog({ onClose }: { onClose: () => void }) {
  const regenerate = useRegenerateRecoveryCodes();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: SyntheticEvent) => {
    e.preventDefault();
    try {
      await regenerate.mutateAsync(code.trim());
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Dialog open onOpenChange={onClose} title="New recovery codes">
      {regenerate.data !== undefined ? (
        <div className="space-y-4">
          <RecoveryCodes codes={regenerate.data} />
          <div className="flex justify-end">
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
          <p className="text-sm text-slate-300">
            Ten new codes replace the ones you have; the old ones stop working.
          </p>
          <CodeField value={code} onChange={setCode} />
          <FormFooter
            error={error}
            onCancel={onClose}
            submit="Make new codes"
            pending={regenerate.isPending}
          />
        </form>
      )}
    </Dialog>
  );
}

function DisableDialog({ onClose }: { onClose: () => void }) {
  const disable = useDisableTwoFactor();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: SyntheticEvent) => {
    e.preventDefault();
    if (password === '' && code.trim() === '') {
      setError('Enter your password or a code');
      return;
    }
    try {
      await disable.mutateAsync(password !== '' ? { password } : { code: code.trim() });
      toast.success('Two-factor sign-in is off');
      onClose();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Dialog open onOpenChange={onClose} title="Turn off two-factor sign-in">
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        <div>
          <Label htmlFor="two-factor-password">Your password</Label>
          <Input
            id="two-factor-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <p className="text-xs text-slate-400">or</p>
        <CodeField value={code} onChange={setCode} />
        <FormFooter
          error={error}
          onCancel={onClose}
          submit="Turn off"
          pending={disable.isPending}
        />
      </form>
    </Dialog>
  );
}
