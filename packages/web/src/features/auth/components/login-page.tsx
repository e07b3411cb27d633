import { Anchor } from 'lucide-react';
import { useState, type SyntheticEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ApiError, NetworkError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useLogin } from '../api/auth-api';
import { pendingPassword } from '../pending-password';
import { SsoSignIn, useSsoSignIn } from './sso-sign-in';
import { SecondFactorField, type SecondFactorKind } from './second-factor-field';

/** The sign-in error texts by cause. */
function loginErrorText(err: unknown): string {
  if (err instanceof NetworkError)
    return 'Connection error. Please check if the backend is running.';
  if (err instanceof ApiError && err.status === 401) return 'Invalid username or password';
  if (err instanceof ApiError && err.status === 429)
    return 'Too many login attempts. Please try again later.';
  // Refused with a reason (password sign-in is off for this user): the server's words.
  if (err instanceof ApiError && err.status === 403) return err.message;
  return 'Login failed. Please try again.';
}

/**
 * `prerendered`: the copy written into login.html at build time, painted before the app
 * starts. It looks the same but takes no input (the app's form replaces it and would drop
 * what was typed) and cannot submit (a form without the app would reload the page).
 */
export function LoginPage({ prerendered = false }: { prerendered?: boolean }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The second step, after a right password of a user with two-factor sign-in.
  const [factor, setFactor] = useState<SecondFactorKind | null>(null);
  const [code, setCode] = useState('');
  const login = useLogin();
  const sso = useSsoSignIn(prerendered);

  const submit = async (e: SyntheticEvent) => {
    e.preventDefault();
    if (username.trim() === '' || password === '') {
      setError('Please enter both username and password');
      return;
    }
    if (factor !== null && code.trim() === '') {
      setError('Please enter the code');
      return;
    }
    try {
      const user = await login.mutateAsync({
        username: username.trim(),
        password,
        ...(factor !== null && { second_factor_code: code.trim() }),
      });
      if (user.is_first_login) pendingPassword.set(password);
      // The shell compares the browser's timezone offset with the stored one once signed in.
      // The signed-in user is now cached: the /login route moves on to where they were going.
    } catch (err) {
      if (err instanceof ApiError && err.code === 'second_factor_required') {
        setFactor('code');
        setError(null);
        return;
      }
      const wrongCode = factor !== null && err instanceof ApiError && err.status === 401;
      setError(wrongCode ? err.message : loginErrorText(err));
    }
  };

  // Flat on purpose: a full-window gradient under a translucent card with a large blurred
  // shadow cost ~120 ms of the cold first paint, rasterized in a renderer just started
  // (bench/first-paint), and hardly showed on the dark background.
  return (
    <div className="flex min-h-full items-center justify-center p-6">
      <form
        onSubmit={(e) => void submit(e)}
        className={cn(
          'w-full max-w-sm space-y-5 rounded-2xl border border-slate-800 bg-slate-900 p-8',
          // Password sign-in off: only the header and single sign-on show, until asked.
          !sso.passwordShown && '[&>:not([data-keep])]:hidden',
        )}
        noValidate
      >
        <div className="flex flex-col items-center gap-2 text-center" data-keep>
          <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-accent/15 text-accent">
            <Anchor className="h-6 w-6" aria-hidden />
          </span>
          <h1 className="text-2xl font-semibold text-white">Berth</h1>
          <p className="text-sm text-slate-400">Docker Container Monitor</p>
        </div>
        <SsoSignIn
          info={sso.info}
          passwordShown={sso.passwordShown}
          onAskPassword={sso.askPassword}
        />
        <div className={factor !== null ? 'hidden' : undefined}>
          <Label htmlFor="login-username">Username</Label>
          <Input
            id="login-username"
            autoComplete="username"
            autoFocus
            readOnly={prerendered}
            value={username}
            onChange={(e) => {
              setUsername(e.target.value);
              setError(null);
            }}
          />
        </div>
        <div className={factor !== null ? 'hidden' : undefined}>
          <Label htmlFor="login-password">Password</Label>
          <Input
            id="login-password"
            type="password"
            autoComplete="current-password"
            readOnly={prerendered}
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              setError(null);
            }}
          />
        </div>
        {factor !== null && (
          <SecondFactorField
            kind={factor}
            value={code}
            onChange={(value) => {
              setCode(value);
              setError(null);
            }}
            onKindChange={setFactor}
          />
        )}
        <FormError message={error} />
        <Button
          type={prerendered ? 'button' : 'submit'}
          aria-disabled={prerendered || undefined}
          className="w-full"
          disabled={login.isPending}
        >
          {login.isPending ? 'Logging in...' : factor !== null ? 'Verify' : 'Log In'}
        </Button>
      </form>
    </div>
  );
}
