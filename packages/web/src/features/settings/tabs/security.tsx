import { SessionsSection } from '../components/sessions-section';
import { TwoFactorSection } from '../components/two-factor-section';

/**
 * Settings → Security (every role): the caller's own sign-in, one section each. Each section
 * is its own component, so a new one is a line here.
 */
export default function SecuritySettingsTab() {
  return (
    <div className="space-y-6">
      <TwoFactorSection />
      <SessionsSection />
    </div>
  );
}
