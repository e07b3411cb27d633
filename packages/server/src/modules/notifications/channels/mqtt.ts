import { connect, type MqttClient } from 'mqtt';
import { DeliveryError, str, type ChannelDriver } from './driver.js';

/** mqtt.js' CONNACK codes that no retry will change: the broker refused the client itself. */
const REFUSED = new Set([1, 2, 4, 5, 0x84, 0x85, 0x86, 0x87, 0x8c]);

/**
 * Publishes the message as JSON to the channel's topic on its own broker (QoS 1, acknowledged):
 * one short connection per delivery, so a channel works whether or not the MQTT integration is
 * on, and the outbox's retries and timeout apply to it like to any HTTP channel.
 */
export const mqtt: ChannelDriver = {
  type: 'mqtt',
  async send(config, message, ctx) {
    const username = str(config, 'username');
    const password = str(config, 'password');
    const client = connect(str(config, 'broker'), {
      ...(username === '' ? {} : { username }),
      ...(password === '' ? {} : { password }),
      connectTimeout: ctx.timeoutMs,
      reconnectPeriod: 0,
      clean: true,
    });
    try {
      await within(ctx.timeoutMs, connected(client));
      const payload = JSON.stringify({
        kind: message.kind,
        title: message.title,
        body: message.body,
        severity: message.severity,
        alert_id: message.alert_id,
        host: message.host_name,
        container: message.container_name,
        rule: message.rule_name,
        at: message.at,
      });
      await within(
        ctx.timeoutMs,
        client.publishAsync(str(config, 'topic'), payload, {
          qos: 1,
          retain: config.retain === true,
        }),
      );
    } finally {
      client.end(true);
    }
  },
};

function connected(client: MqttClient): Promise<void> {
  return new Promise((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', (err: Error & { code?: unknown }) =>
      reject(
        new DeliveryError(`Broker: ${err.message}`, {
          permanent: typeof err.code === 'number' && REFUSED.has(err.code),
        }),
      ),
    );
    client.once('close', () => reject(new DeliveryError('Broker closed the connection')));
  });
}

function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DeliveryError(`Broker did not answer within ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
