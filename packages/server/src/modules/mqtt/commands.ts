import type { ContainerAction } from '@berth/contracts';

/** The actions a command topic may ask for; anything else is refused. */
export const MQTT_ACTIONS = [
  'start',
  'stop',
  'restart',
] as const satisfies readonly ContainerAction[];
export type MqttAction = (typeof MQTT_ACTIONS)[number];

export type ParsedCommand =
  | { ok: true; hostLevel: string; nameLevel: string; action: MqttAction }
  | { ok: false; reason: string; hostLevel: string | null; nameLevel: string | null };

/** The longest payload read: a command is one word; anything longer is refused unread. */
const MAX_PAYLOAD = 64;

/**
 * Reads `<prefix>/container/<host>/<name>/command` and its payload: a bare action word
 * (Home Assistant's payload_press) or JSON `{"action": "..."}`, case and spaces ignored.
 */
export function parseCommand(prefix: string, topic: string, payload: Buffer): ParsedCommand {
  const head = `${prefix}/container/`;
  const rest = topic.startsWith(head) ? topic.slice(head.length).split('/') : [];
  if (rest.length !== 3 || rest[2] !== 'command' || rest[0] === '' || rest[1] === '')
    return { ok: false, reason: `Not a command topic: ${topic}`, hostLevel: null, nameLevel: null };
  const [hostLevel = '', nameLevel = ''] = rest;
  const bad = (reason: string): ParsedCommand => ({ ok: false, reason, hostLevel, nameLevel });
  if (payload.length > MAX_PAYLOAD) return bad(`Payload too long (${payload.length} bytes)`);
  let word = payload.toString('utf8').trim();
  if (word.startsWith('{')) {
    try {
      const json = JSON.parse(word) as unknown;
      const action = (json as { action?: unknown } | null)?.action;
      word = typeof action === 'string' ? action : '';
    } catch {
      return bad('Payload is not valid JSON');
    }
  }
  const action = word.toLowerCase();
  if (!(MQTT_ACTIONS as readonly string[]).includes(action))
    return bad(`Unknown action "${printable(word)}": expected start, stop or restart`);
  return { ok: true, hostLevel, nameLevel, action: action as MqttAction };
}

/** A payload as shown in an event: printable characters only, at most 40. */
const printable = (s: string) => s.replace(/[^\x20-\x7e]/g, '?').slice(0, 40);
