/* The service worker (docs/decisions/035-installable-app.md), served as /sw.js. The build
 * (service-worker-plugin.ts) writes SHELL (the files the app needs to open) and VERSION
 * above this text, so every build with new files is a new worker that replaces the last. */
/* global self, caches, importScripts, SHELL, VERSION */

const CACHE = `berth-shell-${VERSION}`;
const SHELL_PATHS = new Set(SHELL);
/** A navigation that has not answered by then opens the cached app instead. */
const NAVIGATION_TIMEOUT_MS = 5000;
/** A proxy in front of Berth answers these when Berth itself is down. */
const GATEWAY_DOWN = new Set([502, 503, 504]);

// The "This device" notification channel's push and notificationclick handlers live in their
// own file. Imported here, at the worker's first run (the only time importScripts may fetch);
// a build without it still installs and keeps the app working offline.
try {
  importScripts('/sw-push.js');
} catch (error) {
  console.warn('Berth: no push handlers (/sw-push.js)', error);
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      // cache: 'reload' so the browser's HTTP cache cannot hand back an older index.html.
      .then((cache) => cache.addAll(SHELL.map((path) => new Request(path, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith('berth-shell-') && name !== CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // API answers and the live socket always go to the network, never to a cache.
  if (url.pathname === '/api' || url.pathname.startsWith('/api/') || url.pathname.startsWith('/ws'))
    return;
  if (request.mode === 'navigate') {
    event.respondWith(navigate(request, url));
    return;
  }
  if (SHELL_PATHS.has(url.pathname)) event.respondWith(shellFile(request, url.pathname));
});

/**
 * Pages come from the network first (a new build shows at once); when Berth cannot be
 * reached the cached app opens instead, and tells the operator so (app/unreachable.tsx).
 */
async function navigate(request, url) {
  try {
    const response = await withTimeout(fetch(request), NAVIGATION_TIMEOUT_MS);
    if (!GATEWAY_DOWN.has(response.status)) return response;
  } catch {
    // offline, refused or too slow: the cached app below
  }
  const page = url.pathname === '/login' ? '/login.html' : '/index.html';
  const cached = await caches.match(page, { cacheName: CACHE });
  return cached ?? Response.error();
}

/** The shell's files never change under their names (hashed), so the cache answers first. */
async function shellFile(request, path) {
  const cached = await caches.match(path, { cacheName: CACHE });
  return cached ?? fetch(request);
}

function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
