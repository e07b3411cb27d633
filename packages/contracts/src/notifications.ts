import { z } from 'zod';
import { isMqttBrokerUrl, isMqttTopicPrefix } from './integrations.js';
import { lazySchema } from './lazy-schema.js';

/** Notification channel types: the six of the original product, then four more operators expect. */
export const NOTIFICATION_CHANNEL_TYPES = [
  'telegram',
  'discord',
  'slack',
  'pushover',
  'gotify',
  'smtp',
  'webhook',
  'ntfy',
  'teams',
  'google_chat',
  'mqtt',
  'web_push',
] as const;
export const notificationChannelTypeSchema = lazySchema(() => z.enum(NOTIFICATION_CHANNEL_TYPES));
export type NotificationChannelType = z.infer<typeof notificationChannelTypeSchema>;

export const CHANNEL_TYPE_LABELS: Record<NotificationChannelType, string> = {
  telegram: 'Telegram',
  discord: 'Discord',
  slack: 'Slack',
  pushover: 'Pushover',
  gotify: 'Gotify',
  smtp: 'Email (SMTP)',
  webhook: 'Webhook',
  ntfy: 'ntfy',
  teams: 'Microsoft Teams',
  google_chat: 'Google Chat',
  mqtt: 'MQTT',
  web_push: 'This device',
};

/** One config field of a channel type; the form draws it, the server validates it. */
export interface ChannelField {
  key: string;
  label: string;
  input: 'text' | 'password' | 'url' | 'number' | 'email' | 'checkbox' | 'textarea';
  required: boolean;
  /** Encrypted at rest and answered masked; a blank value on edit keeps the stored one. */
  secret: boolean;
  placeholder?: string;
  help?: string;
  default?: string | number | boolean;
}

const field = (
  key: string,
  label: string,
  input: ChannelField['input'],
  more: Partial<ChannelField> = {},
): ChannelField => ({ key, label, input, required: true, secret: false, ...more });

const webhookUrl = (placeholder: string) =>
  field('webhook_url', 'Webhook URL', 'password', { secret: true, placeholder });

/** The config fields of each type; `required` ones answer '<label> is required'. */
export const CHANNEL_FIELDS: Record<NotificationChannelType, ChannelField[]> = {
  telegram: [
    field('bot_token', 'Bot token', 'password', {
      secret: true,
      placeholder: '123456789:ABCdef...',
    }),
    field('chat_id', 'Chat ID', 'text', {
      placeholder: '-1001234567890',
      help: 'A forum topic goes after a slash: -1001234567890/42',
    }),
  ],
  discord: [webhookUrl('https://discord.com/api/webhooks/...')],
  slack: [webhookUrl('https://hooks.slack.com/services/...')],
  pushover: [
    field('app_token', 'App token', 'password', { secret: true }),
    field('user_key', 'User key', 'password', { secret: true }),
    field('url', 'URL', 'url', {
      required: false,
      placeholder: 'https://berth.example.com',
      help: 'Sent as the link of the message',
    }),
  ],
  gotify: [
    field('server_url', 'Server URL', 'url', { placeholder: 'https://gotify.example.com' }),
    field('app_token', 'App token', 'password', { secret: true }),
  ],
  smtp: [
    field('smtp_host', 'SMTP host', 'text', { placeholder: 'smtp.example.com' }),
    field('smtp_port', 'SMTP port', 'number', { required: false, default: 587 }),
    field('smtp_user', 'SMTP user', 'text'),
    field('smtp_password', 'SMTP password', 'password', { secret: true }),
    field('from_email', 'From email', 'email', { placeholder: 'berth@example.com' }),
    field('to_email', 'To email', 'text', {
      placeholder: 'ops@example.com',
      help: 'Several addresses: separate them with commas',
    }),
    field('use_tls', 'Use TLS', 'checkbox', {
      required: false,
      default: true,
      help: 'STARTTLS on port 587, TLS from the start on port 465',
    }),
    field('tls_verify', 'Verify the server certificate', 'checkbox', {
      required: false,
      default: true,
    }),
  ],
  webhook: [
    field('url', 'URL', 'password', { secret: true, placeholder: 'https://example.com/hook' }),
    field('headers', 'Headers', 'textarea', {
      required: false,
      secret: true,
      placeholder: '{"Authorization": "Bearer ..."}',
      help: 'A JSON object; the body is JSON',
    }),
  ],
  ntfy: [
    field('server_url', 'Server URL', 'url', {
      required: false,
      placeholder: 'https://ntfy.sh',
      help: 'Blank: the public ntfy server',
    }),
    field('topic', 'Topic', 'text'),
    field('token', 'Access token', 'password', { required: false, secret: true }),
  ],
  teams: [webhookUrl('https://....webhook.office.com/...')],
  google_chat: [webhookUrl('https://chat.googleapis.com/v1/spaces/...')],
  mqtt: [
    field('broker', 'Broker', 'text', {
      placeholder: 'mqtt://broker.example.com:1883',
      help: 'mqtt://, mqtts://, ws:// or wss://',
    }),
    field('username', 'Username', 'text', { required: false }),
    field('password', 'Password', 'password', { required: false, secret: true }),
    field('topic', 'Topic', 'text', { default: 'berth/notifications' }),
    field('retain', 'Retain the last message', 'checkbox', { required: false, default: false }),
  ],
  // A browser's push subscription: the form fills these from the browser, never by hand.
  web_push: [
    field('endpoint', 'Push endpoint', 'password', { secret: true }),
    field('p256dh', 'Subscription key', 'password', { secret: true }),
    field('auth', 'Subscription secret', 'password', { secret: true }),
    field('device', 'Device', 'text', { required: false, help: 'The browser that subscribed' }),
  ],
};

/** base64url without padding, of exactly `bytes` bytes. */
const isBase64Url = (v: string, bytes: number) =>
  /^[A-Za-z0-9_-]+$/.test(v) && v.length === Math.ceil((bytes * 4) / 3);

export const channelConfigSchema = lazySchema(() =>
  z.record(
    z.string().max(100),
    z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]),
  ),
);
export type ChannelConfig = z.infer<typeof channelConfigSchema>;

const blank = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const isHttpUrl = (v: string) => /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(v.trim());
const isEmail = (v: string) => /^[^\s@,]+@[^\s@,]+$/.test(v.trim());

/**
 * The first problem of a channel's config, or null. `keep` names the secret fields whose
 * stored value stays (an edit that left them blank). Telegram's legacy `token` counts as
 * its bot token.
 */
export function channelConfigProblem(
  type: NotificationChannelType,
  config: ChannelConfig,
  keep: ReadonlySet<string> = new Set(),
): { field: string; message: string } | null {
  const value = (key: string) =>
    type === 'telegram' && key === 'bot_token' && blank(config.bot_token)
      ? config.token
      : config[key];
  for (const f of CHANNEL_FIELDS[type]) {
    const v = value(f.key);
    if (blank(v)) {
      if (f.required && !(f.secret && keep.has(f.key)))
        return { field: f.key, message: `${f.label} is required` };
      continue;
    }
    if (f.input === 'checkbox') {
      if (typeof v !== 'boolean') return { field: f.key, message: `${f.label} must be on or off` };
      continue;
    }
    if (f.input === 'number') {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 65535)
        return { field: f.key, message: `${f.label} must be between 1 and 65535` };
      continue;
    }
    const s = String(v);
    if ((f.input === 'url' || f.key.endsWith('url')) && !isHttpUrl(s))
      return { field: f.key, message: `${f.label} must start with http:// or https://` };
    if (f.key === 'from_email' && !isEmail(s))
      return { field: f.key, message: `${f.label} is not a valid email address` };
    if (f.key === 'to_email' && !s.split(',').every((a) => isEmail(a)))
      return { field: f.key, message: `${f.label} must be email addresses separated by commas` };
    if (f.key === 'headers') {
      try {
        const h = JSON.parse(s) as unknown;
        const ok =
          typeof h === 'object' &&
          h !== null &&
          !Array.isArray(h) &&
          Object.values(h).every((x) => typeof x === 'string');
        if (!ok) throw new Error('not an object');
      } catch {
        return { field: f.key, message: 'Headers must be a JSON object of strings' };
      }
    }
    if (type === 'mqtt' && f.key === 'broker' && !isMqttBrokerUrl(s))
      return {
        field: f.key,
        message: `${f.label} must start with mqtt://, mqtts://, ws:// or wss://`,
      };
    if (type === 'mqtt' && f.key === 'topic' && !isMqttTopicPrefix(s.trim()))
      return { field: f.key, message: `${f.label} must be topic levels without wildcards` };
    if (type === 'web_push') {
      const problem = webPushProblem(f.key, s.trim());
      if (problem !== null) return { field: f.key, message: problem };
    }
    if (f.key === 'bot_token' && !/^\d+:[A-Za-z0-9_-]+$/.test(s.trim()))
      return { field: f.key, message: 'Bot token must look like 123456789:ABCdef...' };
  }
  return null;
}

/** What is wrong with one field of a browser's push subscription, in plain words. */
function webPushProblem(key: string, v: string): string | null {
  if (key === 'endpoint' && !/^https?:\/\/[^\s/?#]+\/[^\s]*$/i.test(v))
    return "The browser's push endpoint must be an http(s) address; subscribe the device again";
  // P-256 public key, uncompressed (65 bytes) and a 16-byte secret, as browsers give them.
  if (key === 'p256dh' && !isBase64Url(v, 65))
    return "The subscription key is not a browser's push key; subscribe the device again";
  if (key === 'auth' && !isBase64Url(v, 16))
    return "The subscription secret is not a browser's push secret; subscribe the device again";
  if (key === 'device' && v.length > 200) return 'Device must be at most 200 characters';
  return null;
}

/** GET /api/notifications/web-push/key: the VAPID public key browsers subscribe with. */
export const webPushKeySchema = lazySchema(() =>
  z.object({
    /** base64url, uncompressed P-256 point: what pushManager.subscribe takes. */
    public_key: z.string(),
  }),
);
export type WebPushKey = z.infer<typeof webPushKeySchema>;

/**
 * What a "This device" notification carries (JSON, encrypted for the browser): the service
 * worker shows title and body and opens `url` (a path of the app) when tapped.
 */
export const webPushPayloadSchema = lazySchema(() =>
  z.object({
    title: z.string(),
    body: z.string(),
    url: z.string(),
    /** Notifications with the same tag replace each other (one per alert). */
    tag: z.string(),
    severity: z.string(),
    kind: z.string(),
  }),
);
export type WebPushPayload = z.infer<typeof webPushPayloadSchema>;

export const channelNameSchema = lazySchema(() =>
  z
    .string({ message: 'Channel name is required' })
    .trim()
    .min(1, 'Channel name is required')
    .max(100, 'Channel name must be at most 100 characters'),
);

/** A channel as the API answers it: secrets masked, the last delivery's outcome. */
export const notificationChannelSchema = lazySchema(() =>
  z.object({
    id: z.number(),
    name: z.string(),
    type: notificationChannelTypeSchema,
    enabled: z.boolean(),
    config: channelConfigSchema,
    created_at: z.string(),
    updated_at: z.string(),
    /** The last delivery error, cleared by the next success. */
    last_error: z.string().nullable(),
    last_error_at: z.string().nullable(),
    last_delivered_at: z.string().nullable(),
  }),
);
export type NotificationChannel = z.infer<typeof notificationChannelSchema>;

export const channelCreateSchema = lazySchema(() =>
  z.strictObject({
    name: channelNameSchema,
    type: notificationChannelTypeSchema,
    config: channelConfigSchema,
    enabled: z.boolean().optional(),
  }),
);
export type ChannelCreate = z.infer<typeof channelCreateSchema>;

/** PUT: any subset; `type` may be sent but must not change; blank secrets keep theirs. */
export const channelUpdateSchema = lazySchema(() =>
  z.strictObject({
    name: channelNameSchema.optional(),
    type: notificationChannelTypeSchema.optional(),
    config: channelConfigSchema.optional(),
    enabled: z.boolean().optional(),
  }),
);
export type ChannelUpdate = z.infer<typeof channelUpdateSchema>;

export const channelParamsSchema = lazySchema(() =>
  z.strictObject({ id: z.coerce.number().int().positive() }),
);

export const channelTestResultSchema = lazySchema(() =>
  z.object({
    success: z.boolean(),
    error: z.string().nullable(),
  }),
);
export type ChannelTestResult = z.infer<typeof channelTestResultSchema>;

export const channelDependentsSchema = lazySchema(() =>
  z.object({
    alert_count: z.number(),
    alert_names: z.array(z.string()),
  }),
);
export type ChannelDependents = z.infer<typeof channelDependentsSchema>;

export const TEMPLATE_KINDS = ['default', 'metric', 'state_change', 'health', 'update'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

export const templateVariablesSchema = lazySchema(() =>
  z.object({
    variables: z.array(z.object({ name: z.string(), description: z.string() })),
    default_templates: z.object({
      default: z.string(),
      metric: z.string(),
      state_change: z.string(),
      health: z.string(),
      update: z.string(),
    }),
  }),
);
export type TemplateVariables = z.infer<typeof templateVariablesSchema>;

/** POST /api/notifications/template-preview: a template rendered with a sample alert. */
export const templatePreviewRequestSchema = lazySchema(() =>
  z.strictObject({
    template: z.string().max(10_000),
    kind: z.enum(TEMPLATE_KINDS).default('default'),
  }),
);
export type TemplatePreviewRequest = z.input<typeof templatePreviewRequestSchema>;

export const templatePreviewSchema = lazySchema(() =>
  z.object({
    text: z.string(),
    /** `{NAME}`s that are no variable: kept as written. */
    unknown_variables: z.array(z.string()),
  }),
);
export type TemplatePreview = z.infer<typeof templatePreviewSchema>;
