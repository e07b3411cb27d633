import type { SsoLoginInfo } from '@berth/contracts/sso';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '@/lib/api-client';

/** The sign-on's start: a plain navigation (a form's redirect to another site would meet CSP). */
export const SSO_START = '/api/v2/auth/sso/start';

/**
 * Read once per visit: the reason a sign-on failed is given only once, so it is not fetched
 * again (a refetch would clear it from the page).
 */
const ssoLoginQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'sso'],
    queryFn: () =>
      api(
        '/v2/auth/sso',
        import('@berth/contracts/sso').then((c) => c.ssoLoginInfoSchema),
      ),
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

/**
 * What the login page offers: single sign-on, and whether the password form shows.
 */
export function useSsoSignIn(prerendered: boolean) {
  const query = useQuery({ ...ssoLoginQueryOptions(), enabled: !prerendered });
  const [passwordAsked, setPasswordAsked] = useState(false);
  const info = query.data;
  return {
    info,
    /** False while password sign-in is off and nobody asked for the admins' form. */
    passwordShown: info === undefined || info.password_sign_in || passwordAsked,
    askPassword: () => setPasswordAsked(true),
  };
}

/**
 * "Sign in with <name>", why the last sign-on failed, and (when password sign-in is off) the
 * admins' break-glass link to the password form.
 */
export function SsoSignIn({
  info,
  passwordShown,
  onAskPassword,
}: {
  info: SsoLoginInfo | undefined;
  passwordShown: boolean;
  onAskPassword: () => void;
}) {
  if (info === undefined) return null;
  return (
    <div className="space-y-3" data-keep>
      {info.error !== null && (
        <p
          role="alert"
          data-testid="sso-error"
          className="rounded-md border border-red-900 bg-red-950/40 px-3 py-2 text-sm text-red-200"
        >
          {info.error}
        </p>
      )}
      {info.enabled && (
        <a
          href={SSO_START}
          className="flex h-10 w-full items-center justify-center rounded-md bg-accent px-4 text-sm font-medium text-white transition-colors hover:bg-accent-strong focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        >
          Sign in with {info.name}
        </a>
      )}
      {info.enabled && passwordShown && (
        <p className="flex items-center gap-3 text-xs text-slate-500" aria-hidden>
          <span className="h-px flex-1 bg-slate-800" />
          or with a password
          <span className="h-px flex-1 bg-slate-800" />
        </p>
      )}
      {!passwordShown && (
        <p className="text-center">
          <button
            type="button"
            className="text-xs text-slate-400 underline-offset-2 hover:text-slate-200 hover:underline"
            onClick={onAskPassword}
          >
            Admin sign-in
          </button>
        </p>
      )}
    </div>
  );
}
