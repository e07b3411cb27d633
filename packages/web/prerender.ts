import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Plugin, type Rollup } from 'vite';
import { SCREEN_CHUNKS_META } from './src/app/preload-screen';

const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * Writes the first screens' markup into the built HTML (src/app/prerender.tsx): index.html
 * gets the shell's skeleton, login.html (served for /login) the login form. Runs the app's
 * own components through a throwaway Vite server in SSR mode, so the markup cannot drift
 * from what the app renders. Before `precompress`, which runs at closeBundle.
 */
export function prerender(): Plugin {
  let root = process.cwd();
  return {
    name: 'berth-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async writeBundle(options, bundle) {
      // The build's own output folder, `--outDir` included.
      const outDir = options.dir ?? join(root, 'dist');
      const server = await createServer({
        root,
        configFile: join(root, 'vite.config.ts'),
        server: { middlewareMode: true, hmr: false, ws: false },
        appType: 'custom',
        logLevel: 'error',
      });
      try {
        const module = (await server.ssrLoadModule('/src/app/prerender.tsx')) as {
          prerenderedPages(): Record<string, string>;
        };
        const template = readFileSync(join(outDir, 'index.html'), 'utf8');
        if (!template.includes(ROOT_ELEMENT)) throw new Error(`index.html lacks ${ROOT_ELEMENT}`);
        for (const [file, markup] of Object.entries(module.prerenderedPages())) {
          let page = template.replace(ROOT_ELEMENT, `<div id="root">${markup}</div>`);
          if (file === 'login.html') page = inlineStylesheets(page, outDir);
          else page = withScreenChunks(preloadApp(page, bundle), bundle);
          writeFileSync(join(outDir, file), page);
        }
      } finally {
        await server.close();
      }
    },
  };
}

/**
 * The login page carries its stylesheet inline (CSP allows inline style elements, never
 * inline script): a cold visit then paints from the HTML alone, without waiting for a second
 * request that competes with the scripts. Signed-in pages keep the cacheable file.
 */
function inlineStylesheets(page: string, dir: string): string {
  return page.replace(
    /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g,
    (_tag, href: string) => `<style>${readFileSync(join(dir, href), 'utf8')}</style>`,
  );
}

/**
 * Signed-in pages fetch the app and the shell beside the entry instead of after it: the
 * entry starts the app only after the skeleton has painted, and the app's own imports, then
 * the shell's, were each found one module evaluation later (bench/dashboard: three waves).
 * Not on /login, where these bytes would compete with painting the form.
 */
function preloadApp(page: string, bundle: Rollup.OutputBundle): string {
  const files = new Set<string>();
  for (const path of ['/src/app/start.tsx', '/src/app/shell/app-shell.tsx'])
    for (const file of filesOf(bundle, chunkOf(bundle, path)))
      if (!file.endsWith('.css')) files.add(file);
  const links = [...files]
    .filter((file) => !page.includes(`/${file}"`))
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
    .join('\n    ');
  return page.replace('  </head>', `    ${links}\n  </head>`);
}

/**
 * Each screen's own files (its chunk, what only it imports, its stylesheet) in a meta tag:
 * the entry preloads the current screen's at once (src/app/preload-screen.ts).
 */
function withScreenChunks(page: string, bundle: Rollup.OutputBundle): string {
  const screens = chunksOf(bundle).flatMap((chunk) => {
    const feature =
      chunk.isDynamicEntry &&
      /\/src\/features\/([\w-]+)\/index\.ts$/.exec(chunk.facadeModuleId ?? '')?.[1];
    if (!feature) return [];
    const own = filesOf(bundle, chunk).filter((file) => !page.includes(`/${file}"`));
    return [`${feature}=${own.join(' ')}`];
  });
  const meta = `<meta name="${SCREEN_CHUNKS_META}" content="${screens.join(';')}">`;
  return page.replace('  </head>', `    ${meta}\n  </head>`);
}

const chunksOf = (bundle: Rollup.OutputBundle) =>
  Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');

function chunkOf(bundle: Rollup.OutputBundle, modulePath: string): Rollup.OutputChunk {
  const chunk = chunksOf(bundle).find((c) => c.facadeModuleId?.endsWith(modulePath));
  if (chunk === undefined) throw new Error(`no chunk for ${modulePath}`);
  return chunk;
}

/** A chunk, the chunks it imports (statically, transitively) and their stylesheets. */
function filesOf(bundle: Rollup.OutputBundle, root: Rollup.OutputChunk): string[] {
  const files = new Set<string>();
  const visit = (chunk: Rollup.OutputChunk) => {
    if (files.has(chunk.fileName)) return;
    files.add(chunk.fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
    for (const name of chunk.imports) {
      const next = bundle[name];
      if (next?.type === 'chunk') visit(next);
    }
  };
  visit(root);
  return [...files];
}
