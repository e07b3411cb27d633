import type { ChannelConfig, NotificationChannelType } from '@berth/contracts';
import type { OutgoingMessage } from '../message.js';

/** Where the services live: the public ones unless the environment points elsewhere. */
export interface NotificationEndpoints {
  telegramApiUrl: string;
  pushoverApiUrl: string;
  ntfyUrl: string;
}

export interface DeliveryContext {
  endpoints: NotificationEndpoints;
  /** Every attempt gives up after this long (10 s). */
  timeoutMs: number;
  /** A short product line for headers and sender names. */
  product: string;
  /** Berth's VAPID key pair for Web Push; null until loaded at start. */
  vapid?: () => VapidDetails | null;
}

/** What Web Push signs with: a contact (mailto: or https:) and the key pair, base64url. */
export interface VapidDetails {
  subject: string;
  publicKey: string;
  privateKey: string;
}

/** One channel type: turns a message into its service's request and sends it. */
export interface ChannelDriver {
  type: NotificationChannelType;
  send(config: ChannelConfig, message: OutgoingMessage, ctx: DeliveryContext): Promise<void>;
  /** Releases pooled connections (SMTP). */
  close?(): void;
}

/**
 * A failed attempt. `permanent` ones (the service refused the request itself) are not
 * retried; `retryAfterMs` is the service's own wait (HTTP 429 Retry-After).
 */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  constructor(
    message: string,
    /** `gone`: the channel's subscription no longer exists (Web Push 404/410) and is dropped. */
    readonly options: { permanent?: boolean; retryAfterMs?: number; gone?: boolean } = {},
  ) {
    super(message);
  }
}

export const str = (config: ChannelConfig, key: string): string => {
  const v = config[key];
  return v === undefined || v === null ? '' : String(v).trim();
};
