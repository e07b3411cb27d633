/** After `load`, this long and then an idle moment: the first screen's reads come first. */
const AFTER_LOAD_MS = 3000;

/**
 * Registers the service worker (/sw.js, written by the build: service-worker-plugin.ts) once
 * the first screen has had its turn: installing it fetches the whole shell (~360 KB), which
 * would compete with the screen's own chunks and reads right after `load`. Built apps only:
 * the dev server has no worker, and a worker left over from a build would answer the dev
 * server's pages from its cache.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
      console.warn('Berth: the service worker could not be registered', error);
    });
  };
  const later = () =>
    setTimeout(() => {
      if (typeof requestIdleCallback === 'function')
        requestIdleCallback(register, { timeout: 2000 });
      else register();
    }, AFTER_LOAD_MS);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
