import { toPlain } from '../message.js';
import { str, type ChannelDriver } from './driver.js';
import { post } from './http.js';

/** A generic webhook: JSON describing the notification, with the configured headers. */
export const webhook: ChannelDriver = {
  type: 'webhook',
  async send(config, message, ctx) {
    const raw = str(config, 'headers');
    const headers = raw === '' ? {} : (JSON.parse(raw) as Record<string, string>);
    await post(
      str(config, 'url'),
      {
        json: {
          event: message.kind,
          title: message.title,
          message: toPlain(message.body),
          severity: message.severity,
          alert_id: message.alert_id,
          host_name: message.host_name,
          container_name: message.container_name,
          rule_name: message.rule_name,
          timestamp: message.at,
        },
      },
      ctx,
      Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    );
  },
};
