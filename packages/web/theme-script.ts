import { THEME_BOOT_SCRIPT } from '@berth/contracts/theme';
import type { Plugin } from 'vite';

/**
 * Puts the theme's boot script inline at the top of <head> (dev server and build alike), so
 * `data-theme` is set before the stylesheet applies and the first paint is in the right
 * theme. The server's CSP allows this exact text by its hash (platform/security-headers.ts).
 */
export function themeScript(): Plugin {
  return {
    name: 'berth-theme-script',
    transformIndexHtml: () => [
      { tag: 'script', children: THEME_BOOT_SCRIPT, injectTo: 'head-prepend' },
    ],
  };
}
