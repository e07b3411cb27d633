import { useEffect } from 'react';
import { useNavigate } from 'react-router';

/** What public/sw-push.js posts when a notification is tapped while the app is open. */
interface OpenMessage {
  type: 'berth:open';
  url: string;
}

const isOpenMessage = (data: unknown): data is OpenMessage =>
  typeof data === 'object' &&
  data !== null &&
  (data as Partial<OpenMessage>).type === 'berth:open' &&
  typeof (data as Partial<OpenMessage>).url === 'string';

/**
 * Routes the open app to a tapped notification's page (an alert's side panel) instead of the
 * worker reloading it, and tells the worker it did; a link to another site is ignored.
 */
export function useWorkerRoutes(): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    const container = navigator.serviceWorker;
    const onMessage = (event: MessageEvent) => {
      if (!isOpenMessage(event.data)) return;
      const url = new URL(event.data.url, window.location.origin);
      if (url.origin !== window.location.origin) return;
      void navigate(`${url.pathname}${url.search}${url.hash}`);
      event.ports[0]?.postMessage('shown');
    };
    container.addEventListener('message', onMessage);
    // Messages wait in a queue until the page says it listens.
    container.startMessages();
    return () => container.removeEventListener('message', onMessage);
  }, [navigate]);
}
