import {
  SSO_DEFAULT_ROLES,
  type SsoDefaultRole,
  type SsoSettings,
  type SsoTestResult,
} from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/select';
import { errorText } from '@/lib/api-client';
import { ssoSettingsQueryOptions, useSaveSso, useTestSso } from '../api/sso-api';
import {
  DraftActions,
  SettingRow,
  SettingsSection,
  SwitchSettingRow,
  TextSettingRow,
} from './setting-row';

type ListKey = 'admin_values' | 'operator_values' | 'viewer_values';
/** The form: the claim values as the comma-separated text being typed. */
type Draft = Omit<SsoSettings, ListKey> & Record<ListKey, string>;

const toDraft = (s: SsoSettings): Draft => ({
  ...s,
  admin_values: s.admin_values.join(', '),
  operator_values: s.operator_values.join(', '),
  viewer_values: s.viewer_values.join(', '),
});
const values = (text: string) =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

const DEFAULT_ROLE_TEXT: Record<SsoDefaultRole, string> = {
  refuse: 'Refuse the sign-in',
  viewer: 'Viewer',
  operator: 'Operator',
};

/** What the Test button found at the issuer, or why it failed. */
function TestOutcome({ result }: { result: SsoTestResult }) {
  if (!result.ok)
    return (
      <p role="status" data-testid="sso-test" className="py-2 text-sm text-red-300">
        Discovery failed: {result.error}
      </p>
    );
  return (
    <div role="status" data-testid="sso-test" className="space-y-1 py-2 text-sm text-slate-300">
      <p className="text-emerald-300">Found {result.issuer}</p>
      <p>Sign-in page: {result.authorization_endpoint}</p>
      <p>Token endpoint: {result.token_endpoint}</p>
      {result.scopes_supported.length > 0 && <p>Scopes: {result.scopes_supported.join(' ')}</p>}
      {result.claims_supported.length > 0 && <p>Claims: {result.claims_supported.join(', ')}</p>}
      {!result.pkce_s256 && (
        <p className="text-amber-300">The provider does not list PKCE (S256); Berth sends it.</p>
      )}
    </div>
  );
}

/** Settings → Authentication → Single sign-on (OpenID Connect). */
export function SsoSection() {
  const query = useQuery(ssoSettingsQueryOptions());
  const save = useSaveSso();
  const test = useTestSso();
  const [draft, setDraft] = useState<Draft | null>(null);
  if (query.data === undefined)
    return (
      <SettingsSection title="Single sign-on">
        <p className="py-3 text-sm text-slate-400">
          {query.isError ? `Failed to load: ${errorText(query.error)}` : 'Loading…'}
        </p>
      </SettingsSection>
    );
  const form = draft ?? toDraft(query.data.settings);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft({ ...form, [key]: value });
  const submit = () =>
    save.mutate(
      {
        ...form,
        admin_values: values(form.admin_values),
        operator_values: values(form.operator_values),
        viewer_values: values(form.viewer_values),
      },
      {
        onSuccess: () => {
          setDraft(null);
          toast.success('Single sign-on settings saved');
        },
        onError: (err) =>
          toast.error('Failed to save single sign-on settings', { description: errorText(err) }),
      },
    );

  return (
    <SettingsSection title="Single sign-on">
      <div data-testid="sso-settings">
        <SwitchSettingRow
          label="Sign in with an OpenID Connect provider"
          description="Keycloak, Authentik, Authelia, Entra ID, Google…: the login page offers it beside the password form."
          checked={form.enabled}
          onChange={(v) => set('enabled', v)}
        />
        <SettingRow
          label="Redirect URI"
          description="Register this address with the provider as the client's redirect (callback) URI."
        >
          <code
            className="rounded bg-slate-800 px-2 py-1 text-xs text-slate-200"
            data-testid="sso-redirect-uri"
          >
            {query.data.redirect_uri}
          </code>
        </SettingRow>
        <TextSettingRow
          id="sso-display-name"
          label="Display name"
          description='The login button reads "Sign in with <name>".'
          placeholder="Authentik"
          value={form.display_name}
          onChange={(v) => set('display_name', v)}
        />
        <TextSettingRow
          id="sso-issuer-url"
          label="Issuer URL"
          description="The provider's issuer; its /.well-known/openid-configuration is read from it."
          placeholder="https://auth.example.com/application/o/berth/"
          value={form.issuer_url}
          onChange={(v) => set('issuer_url', v)}
        >
          <Button
            size="sm"
            variant="secondary"
            disabled={test.isPending || form.issuer_url.trim() === ''}
            onClick={() =>
              test.mutate(
                { issuer_url: form.issuer_url.trim() },
                { onError: (err) => toast.error('Test failed', { description: errorText(err) }) },
              )
            }
          >
            {test.isPending ? 'Testing…' : 'Test'}
          </Button>
        </TextSettingRow>
        {test.data !== undefined && <TestOutcome result={test.data} />}
        <TextSettingRow
          id="sso-client-id"
          label="Client ID"
          description="The client registered for Berth at the provider."
          value={form.client_id}
          onChange={(v) => set('client_id', v)}
        />
        <TextSettingRow
          id="sso-client-secret"
          label="Client secret"
          type="password"
          description="Stored encrypted; leave the dots to keep the stored one, or empty for a public client."
          value={form.client_secret}
          onChange={(v) => set('client_secret', v)}
        />
        <TextSettingRow
          id="sso-scopes"
          label="Scopes"
          description="Space-separated; openid is always asked for. Add the scope that carries groups if your provider needs one."
          value={form.scopes}
          onChange={(v) => set('scopes', v)}
        />
        <TextSettingRow
          id="sso-username-claim"
          label="Username claim"
          description="Names a new user, and finds an existing Berth user of that name on a first sign-in."
          value={form.username_claim}
          onChange={(v) => set('username_claim', v)}
        />
        <TextSettingRow
          id="sso-role-claim"
          label="Role claim"
          description="The claim with the user's groups or roles: groups, or a dotted path such as realm_access.roles. Read at every sign-in: leaving a group changes the role next time."
          placeholder="groups"
          value={form.role_claim}
          onChange={(v) => set('role_claim', v)}
        />
        <TextSettingRow
          id="sso-admin-values"
          label="Admin values"
          description="Comma-separated claim values that make an admin."
          value={form.admin_values}
          onChange={(v) => set('admin_values', v)}
        />
        <TextSettingRow
          id="sso-operator-values"
          label="Operator values"
          description="…that make an operator (the strongest match wins)."
          value={form.operator_values}
          onChange={(v) => set('operator_values', v)}
        />
        <TextSettingRow
          id="sso-viewer-values"
          label="Viewer values"
          description="…that make a viewer."
          value={form.viewer_values}
          onChange={(v) => set('viewer_values', v)}
        />
        <SettingRow
          label="When no value matches"
          htmlFor="sso-default-role"
          description="Refusing keeps out everyone the provider knows but the groups above."
        >
          <Select
            id="sso-default-role"
            value={form.default_role}
            onChange={(e) => set('default_role', e.target.value as SsoDefaultRole)}
          >
            {SSO_DEFAULT_ROLES.map((role) => (
              <option key={role} value={role}>
                {DEFAULT_ROLE_TEXT[role]}
              </option>
            ))}
          </Select>
        </SettingRow>
        <SwitchSettingRow
          label="Create users at their first sign-in"
          description="Off: only Berth users that exist (same username) or are linked already may sign in."
          checked={form.auto_create}
          onChange={(v) => set('auto_create', v)}
        />
        <SwitchSettingRow
          label="Disable password sign-in"
          description='Only single sign-on for everyone but admins, who keep their password for when the provider is down ("Admin sign-in" on the login page).'
          checked={form.password_sign_in_disabled}
          onChange={(v) => set('password_sign_in_disabled', v)}
        />
        <DraftActions
          dirty={draft !== null}
          saving={save.isPending}
          onDiscard={() => setDraft(null)}
          onSave={submit}
        />
      </div>
    </SettingsSection>
  );
}
