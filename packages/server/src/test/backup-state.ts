import type { AlertRule, Host, NotificationChannel } from '@berth/contracts';
import { containerStoppedRule } from './alert-rules.js';
import type { httpApi } from './server-process.js';

type HttpApi = ReturnType<typeof httpApi>;

/** What a backup must carry over: hosts, rules and channels, without their live parts. */
export async function backedUpState(api: HttpApi) {
  const hosts = (await api<Host[]>('GET', '/hosts')).body;
  const rules = (await api<AlertRule[]>('GET', '/alerts/rules')).body;
  const channels = (await api<NotificationChannel[]>('GET', '/notifications/channels')).body;
  return {
    hosts: hosts.map((h) => ({ id: h.id, name: h.name, url: h.url, tags: h.tags })),
    rules,
    channels: channels.map((c) => ({ id: c.id, name: c.name, type: c.type, config: c.config })),
  };
}

/**
 * A webhook channel (its URL and an Authorization header are secrets sealed with the data
 * directory's key) and a rule notifying it, named after `tag`.
 */
export async function addChannelAndRule(
  api: HttpApi,
  tag: string,
  hookUrl: string,
  authorization: string,
): Promise<NotificationChannel> {
  const channel = await api<NotificationChannel>('POST', '/notifications/channels', {
    name: `hook-${tag}`,
    type: 'webhook',
    config: { url: hookUrl, headers: JSON.stringify({ Authorization: authorization }) },
  });
  if (channel.status !== 200) throw new Error(`channel: ${JSON.stringify(channel.body)}`);
  const rule = await api<AlertRule>(
    'POST',
    '/alerts/rules',
    containerStoppedRule(`rule-${tag}`, [tag], [channel.body.id]),
  );
  if (rule.status !== 200) throw new Error(`rule: ${JSON.stringify(rule.body)}`);
  return channel.body;
}
