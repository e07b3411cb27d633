import { SsoSection } from '../components/sso-section';
import { TwoFactorPolicySection } from '../components/two-factor-policy';

/**
 * Settings → Authentication (admins): how users sign in, one section each (single sign-on,
 * the two-factor requirement). Each section is its own component, so a new one is a line here.
 */
export default function AuthenticationSettingsTab() {
  return (
    <div className="space-y-6">
      <SsoSection />
      <TwoFactorPolicySection />
    </div>
  );
}
