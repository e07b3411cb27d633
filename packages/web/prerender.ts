import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Plugin } from 'vite';

const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * Writes the first screens' markup into the built HTML (src/app/prerender.tsx): index.html
 * gets the shell's skeleton, login.html (served for /login) the login form. Runs the app's
 * own components through a throwaway Vite server in SSR mode, so the markup cannot drift
 * from what the app renders. Before `precompress`, which runs at closeBundle.
 */
export function prerender(outDir: string): Plugin {
  let root = process.cwd();
  return {
    name: 'berth-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async writeBundle() {
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
        const template = readFileSync(join(root, outDir, 'index.html'), 'utf8');
        if (!template.includes(ROOT_ELEMENT)) throw new Error(`index.html lacks ${ROOT_ELEMENT}`);
        for (const [file, markup] of Object.entries(module.prerenderedPages())) {
          let page = template.replace(ROOT_ELEMENT, `<div id="root">${markup}</div>`);
          if (file === 'login.html') page = inlineStylesheets(page, join(root, outDir));
          writeFileSync(join(root, outDir, file), page);
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
