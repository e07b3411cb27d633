import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { SCREEN_CHUNKS_META } from './src/app/preload-screen';

/** Served beside the pages: what the installed app and the offline screen need. */
const STATIC_SHELL = [
  '/manifest.webmanifest',
  '/favicon.png',
  '/icons/icon-192.png',
  '/icons/icon-512.png',
  '/icons/icon-maskable-512.png',
  '/icons/apple-touch-icon.png',
];
const PAGES = ['index.html', 'login.html'];
const ASSET_URL = /(?:src|href)="(\/assets\/[^"]+)"/g;

/**
 * Writes the service worker (/sw.js) after the build: the worker's own source
 * (service-worker.js) under the list of files it caches, read from the built pages (after
 * `prerender` has written them, so the modulepreloads are in) and a version taken from those
 * files' names and the push handlers' file. Before `precompress`, which compresses it too.
 */
export function serviceWorker(): Plugin {
  let outDir = 'dist';
  let root = process.cwd();
  return {
    name: 'berth-service-worker',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'pre',
      sequential: true,
      handler() {
        const shell = shellFiles(outDir);
        const version = createHash('sha256');
        for (const path of shell) version.update(path);
        for (const page of [...PAGES, 'sw-push.js'])
          if (existsSync(join(outDir, page))) version.update(readFileSync(join(outDir, page)));
        const source = readFileSync(join(root, 'service-worker.js'), 'utf8');
        writeFileSync(
          join(outDir, 'sw.js'),
          `const SHELL = ${JSON.stringify(shell)};\n` +
            `const VERSION = '${version.digest('hex').slice(0, 16)}';\n${source}`,
        );
      },
    },
  };
}

/** The pages, every asset they name, every screen's chunks and the static files. */
export function shellFiles(outDir: string): string[] {
  const files = new Set<string>();
  for (const page of PAGES) {
    if (!existsSync(join(outDir, page))) continue;
    files.add(`/${page}`);
    const html = readFileSync(join(outDir, page), 'utf8');
    for (const match of html.matchAll(ASSET_URL)) files.add(match[1] ?? '');
    for (const file of screenChunks(html)) files.add(`/${file}`);
  }
  for (const path of STATIC_SHELL) if (existsSync(join(outDir, path))) files.add(path);
  files.delete('');
  return [...files].sort();
}

/**
 * Every screen's files, from the page's screen-chunks meta (prerender.ts): the router loads a
 * screen's chunk before the session check can say Berth is unreachable, and an installed app
 * opens on whichever screen (a notification's link), so each must load from the cache.
 */
function screenChunks(html: string): string[] {
  const meta = new RegExp(`<meta name="${SCREEN_CHUNKS_META}" content="([^"]*)"`).exec(html);
  return (meta?.[1] ?? '').split(';').flatMap((entry) => entry.split('=')[1]?.split(' ') ?? []);
}
