import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/** Which second factor the sign-in's second step asks for. */
export type SecondFactorKind = 'code' | 'recovery';

/**
 * The sign-in's second step: a code from the authenticator app, or (by the link) one of the
 * recovery codes; both go in the same field to the server.
 */
export function SecondFactorField({
  kind,
  value,
  onChange,
  onKindChange,
}: {
  kind: SecondFactorKind;
  value: string;
  onChange: (value: string) => void;
  onKindChange: (kind: SecondFactorKind) => void;
}) {
  const code = kind === 'code';
  return (
    <div>
      <Label htmlFor="login-second-factor">{code ? 'Two-factor code' : 'Recovery code'}</Label>
      <Input
        id="login-second-factor"
        autoFocus
        autoComplete="one-time-code"
        inputMode={code ? 'numeric' : 'text'}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <p className="mt-1 text-xs text-slate-400">
        {code
          ? 'Enter the code your authenticator app shows.'
          : 'Enter one of the recovery codes you saved; each works once.'}{' '}
        <button
          type="button"
          className="text-accent underline-offset-2 hover:underline"
          onClick={() => {
            onChange('');
            onKindChange(code ? 'recovery' : 'code');
          }}
        >
          {code ? 'Use a recovery code' : 'Use the authenticator app'}
        </button>
      </p>
    </div>
  );
}
