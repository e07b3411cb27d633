import { MqttSection } from './integrations-mqtt';
import { PrometheusSection } from './integrations-prometheus';

/** Settings → Integrations: each integration is a section of its own file. */
export default function IntegrationsSettingsTab() {
  return (
    <div
      className="grid gap-6 max-md:grid-cols-[minmax(0,1fr)]"
      data-testid="integrations-settings"
    >
      <PrometheusSection />
      <MqttSection />
    </div>
  );
}
