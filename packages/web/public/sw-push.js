/* The "This device" notification channel's side of the service worker, imported by /sw.js.
 * A push carries JSON (WebPushPayload in @berth/contracts): title, body, url (a path of the
 * app: an alert's side panel), tag (one notification per alert), severity and kind. */
/* global self */

self.addEventListener('push', (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    // Not JSON: still worth showing, as text.
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' && data.title !== '' ? data.title : 'Berth';
  const options = {
    body: typeof data.body === 'string' ? data.body : '',
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    data: { url: typeof data.url === 'string' ? data.url : '/alerts' },
    // A critical alert stays until it is seen; the rest come and go like other apps'.
    requireInteraction: data.severity === 'critical',
  };
  if (typeof data.tag === 'string' && data.tag !== '') {
    options.tag = data.tag;
    // A new occurrence of the same alert alerts again rather than replacing it silently.
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(title, options));
});

/** The app's own address for a notification's link: never another site's. */
function targetOf(notification) {
  const raw = notification.data && notification.data.url;
  try {
    const url = new URL(typeof raw === 'string' ? raw : '/alerts', self.location.origin);
    if (url.origin === self.location.origin) return url.href;
  } catch {
    // A link that is no URL falls back to the alerts page.
  }
  return new URL('/alerts', self.location.origin).href;
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = targetOf(event.notification);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open !== undefined) {
        // The open app goes to the alert; a window this worker does not control cannot be
        // navigated, so one is opened instead.
        try {
          const focused = await open.focus();
          // The app routes itself when it answers: no reload, its live channel stays open.
          if (await askAppToRoute(focused, target)) return;
          if ('navigate' in focused) {
            const moved = await focused.navigate(target);
            if (moved) return;
          }
        } catch {
          // Fall through to a new window.
        }
      }
      await self.clients.openWindow(target);
    })(),
  );
});

/** How long a tap waits for the open app to say it moved, before loading the page instead. */
const ROUTE_WAIT_MS = 1000;

/** Asks the app in `client` to show `href` itself (app/shell/use-worker-routes.ts). */
function askAppToRoute(client, href) {
  if (typeof client.postMessage !== 'function' || typeof MessageChannel !== 'function')
    return Promise.resolve(false);
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => {
      channel.port1.close();
      resolve(false);
    }, ROUTE_WAIT_MS);
    channel.port1.onmessage = () => {
      clearTimeout(timer);
      channel.port1.close();
      resolve(true);
    };
    client.postMessage({ type: 'berth:open', url: href }, [channel.port2]);
  });
}
