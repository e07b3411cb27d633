import { mqttIntegrationSchema, mqttSettingsUpdateSchema } from '@berth/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../auth/index.js';
import type { MqttService } from './mqtt.service.js';

/** Settings → Integrations → MQTT: the settings (password masked) and the connection's status. */
export function mqttRoutes(app: FastifyInstance, opts: { mqtt: MqttService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/integrations/mqtt', { schema: { response: { 200: mqttIntegrationSchema } } }, () =>
    opts.mqtt.view(),
  );
  r.put(
    '/integrations/mqtt',
    { schema: { body: mqttSettingsUpdateSchema, response: { 200: mqttIntegrationSchema } } },
    (req) => opts.mqtt.update(req.body, actorOf(req)),
  );
}
