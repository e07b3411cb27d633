import { USER_ROLES, type UserRole } from '@berth/contracts';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Switch } from '@/components/ui/switch';
import { errorText } from '@/lib/api-client';
import { twoFactorPolicyQueryOptions, useSetTwoFactorPolicy } from '../api/two-factor-api';
import { SettingRow, SettingsSection } from './setting-row';

const ROLE_NAMES: Record<UserRole, string> = {
  admin: 'Admins',
  operator: 'Operators',
  viewer: 'Viewers',
};

/** Settings → Authentication: the roles whose password users must use two-factor. */
export function TwoFactorPolicySection() {
  const policy = useQuery(twoFactorPolicyQueryOptions());
  const save = useSetTwoFactorPolicy();
  // While a change saves, it shows as made (the switch follows the click at once).
  const roles = (save.isPending ? save.variables : policy.data)?.required_roles ?? [];
  const toggle = (role: UserRole, on: boolean) => {
    const next = on ? [...roles, role] : roles.filter((r) => r !== role);
    save.mutate(
      { required_roles: next },
      { onError: (err) => toast.error(`Saving failed: ${errorText(err)}`) },
    );
  };
  return (
    <SettingsSection title="Two-factor requirement">
      {policy.isError ? (
        <p className="py-2 text-sm text-red-300">Failed to load: {errorText(policy.error)}</p>
      ) : policy.data === undefined ? (
        <p className="py-2 text-sm text-slate-400">Loading…</p>
      ) : (
        <SettingRow
          label="Roles that must use two-factor sign-in"
          description="A password user of these roles who has not set it up can do nothing else after signing in until they do. Single sign-on users and API keys are not affected."
        >
          {USER_ROLES.map((role) => (
            <Switch
              key={role}
              label={`Require two-factor for ${ROLE_NAMES[role]}`}
              checked={roles.includes(role)}
              onCheckedChange={(on) => toggle(role, on)}
            >
              <span className="text-sm text-slate-200">{ROLE_NAMES[role]}</span>
            </Switch>
          ))}
        </SettingRow>
      )}
    </SettingsSection>
  );
}
