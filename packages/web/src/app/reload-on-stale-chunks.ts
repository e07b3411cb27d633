const FLAG = 'berth:reloaded-for-chunk';
const WINDOW_MS = 10_000;

/**
 * A lazily loaded chunk (or its CSS) that fails to load means the page is older than the
 * server's build (Berth was upgraded while the tab was open) or the request was lost: the
 * page reloads once instead of showing an application error. A second failure within 10 s
 * is left to the error screen, so a real outage cannot cause a reload loop.
 */
export function reloadOnStaleChunks(): void {
  window.addEventListener('vite:preloadError', (event) => {
    const last = Number(sessionStorage.getItem(FLAG) ?? 0);
    if (Date.now() - last < WINDOW_MS) return;
    sessionStorage.setItem(FLAG, String(Date.now()));
    event.preventDefault();
    window.location.reload();
  });
}
