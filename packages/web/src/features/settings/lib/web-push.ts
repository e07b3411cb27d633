/**
 * The browser's side of a "This device" channel: asking for permission, subscribing through
 * the service worker's pushManager with Berth's VAPID key, and every way that fails, in
 * words an operator can act on.
 */

/** A failed subscription, said plainly (shown as it is in the channel form). */
export class PushProblem extends Error {
  override name = 'PushProblem';
}

/** What a channel's config keeps of a subscription. */
export interface DeviceSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export const PERMISSION_DENIED =
  'Notifications are blocked for Berth in this browser. Allow them in the site settings (the icon left of the address), then subscribe again.';
export const PERMISSION_DISMISSED =
  'The browser asked whether Berth may show notifications and got no answer. Subscribe again and choose Allow.';
const UNSUPPORTED =
  'This browser cannot receive push notifications. On an iPhone or iPad, add Berth to the Home Screen first and open it from there.';
const NO_WORKER =
  "Berth's service worker is not running in this browser, and push notifications need it. Reload the page and try again; Berth must be opened over https (or on localhost).";
const PUSH_SERVICE_DOWN =
  "The browser could not reach its push service to subscribe. Check this device's internet connection and try again.";

/** How long the service worker may take to be ready after a page load. */
const WORKER_WAIT_MS = 10_000;

/** "Chrome on Android", "Safari on iPhone": a device's name as its user agent gives it. */
export function deviceName(userAgent: string): string {
  const ua = userAgent;
  const browser = /Edg(e|A|iOS)?\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /SamsungBrowser\//.test(ua)
        ? 'Samsung Internet'
        : /Firefox\/|FxiOS\//.test(ua)
          ? 'Firefox'
          : /Chrome\/|CriOS\/|Chromium\//.test(ua)
            ? 'Chrome'
            : /Safari\//.test(ua)
              ? 'Safari'
              : 'Browser';
  const os = /iPhone/.test(ua)
    ? 'iPhone'
    : /iPad/.test(ua)
      ? 'iPad'
      : /Android/.test(ua)
        ? 'Android'
        : /CrOS/.test(ua)
          ? 'ChromeOS'
          : /Windows/.test(ua)
            ? 'Windows'
            : /Mac OS X|Macintosh/.test(ua)
              ? 'macOS'
              : /Linux/.test(ua)
                ? 'Linux'
                : '';
  return os === '' ? browser : `${browser} on ${os}`;
}

/** Whether this browser can take part at all; null when it can, else why not. */
export function pushUnsupported(): string | null {
  const ok =
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window;
  return ok ? null : UNSUPPORTED;
}

/** The browser's notification permission now, or null where there is none. */
export function notificationPermission(): NotificationPermission | null {
  return typeof Notification === 'undefined' ? null : Notification.permission;
}

/** base64url → bytes, as pushManager.subscribe takes the key. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

const sameKey = (a: ArrayBuffer | null, b: Uint8Array) =>
  a !== null && a.byteLength === b.length && new Uint8Array(a).every((x, i) => x === b[i]);

async function registration(): Promise<ServiceWorkerRegistration> {
  const now = await navigator.serviceWorker.getRegistration();
  if (now !== undefined) return now;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      navigator.serviceWorker.ready,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new PushProblem(NO_WORKER)), WORKER_WAIT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Asks for permission (a no-op once granted), then subscribes this browser with Berth's
 * public key; a subscription made with another key, or one its push service dropped
 * (`renew`), is replaced. Throws a PushProblem.
 */
export async function subscribeThisDevice(
  publicKey: string,
  renew = false,
): Promise<DeviceSubscription> {
  const unsupported = pushUnsupported();
  if (unsupported !== null) throw new PushProblem(unsupported);
  const permission = await Notification.requestPermission();
  if (permission === 'denied') throw new PushProblem(PERMISSION_DENIED);
  if (permission !== 'granted') throw new PushProblem(PERMISSION_DISMISSED);
  const reg = await registration();
  const key = keyBytes(publicKey);
  let sub: PushSubscription | null;
  try {
    sub = await reg.pushManager.getSubscription();
    if (sub !== null && (renew || !sameKey(sub.options.applicationServerKey, key))) {
      await sub.unsubscribe();
      sub = null;
    }
    sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  } catch (err) {
    const name = err instanceof DOMException ? err.name : '';
    if (name === 'NotAllowedError') throw new PushProblem(PERMISSION_DENIED);
    if (name === 'AbortError' || name === 'NetworkError') throw new PushProblem(PUSH_SERVICE_DOWN);
    throw new PushProblem(
      `The browser could not subscribe: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const json = sub.toJSON();
  const p256dh = json.keys?.p256dh;
  const auth = json.keys?.auth;
  if (json.endpoint === undefined || p256dh === undefined || auth === undefined)
    throw new PushProblem('The browser gave a subscription without its keys; try again.');
  return { endpoint: json.endpoint, p256dh, auth };
}

/** The endpoint of this browser's current subscription, if it has one. */
export async function currentEndpoint(): Promise<string | null> {
  if (pushUnsupported() !== null) return null;
  const reg = await navigator.serviceWorker.getRegistration();
  const sub = await reg?.pushManager.getSubscription();
  return sub?.endpoint ?? null;
}
