/**
 * Registers the service worker (/sw.js, written by the build: service-worker-plugin.ts) once
 * the page has loaded, so it never competes with the first screen for the network. Built
 * apps only: the dev server has no worker, and a worker left over from a build would answer
 * the dev server's pages from its cache.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
      console.warn('Berth: the service worker could not be registered', error);
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
