/**
 * The colour theme: shared by the web app, which runs THEME_BOOT_SCRIPT inline before the
 * first paint, and the server, whose CSP allows exactly that script by its hash.
 */

/** What the account menu offers; 'system' follows the device's light or dark setting. */
export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
export type ResolvedTheme = Exclude<ThemeChoice, 'system'>;

/** localStorage key of the choice; absent means 'system'. */
export const THEME_STORAGE_KEY = 'berth.theme';

/**
 * Sets `data-theme` on <html> before anything paints, so a light page never flashes dark.
 * Inline (an external file would hold the login page's first paint for one more request);
 * storage can throw (blocked cookies), which leaves the system setting.
 */
export const THEME_BOOT_SCRIPT =
  `(function(){var t;try{t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)})}catch(e){}` +
  `if(t!=='light'&&t!=='dark')t=matchMedia('(prefers-color-scheme: light)').matches?'light':'dark';` +
  `document.documentElement.setAttribute('data-theme',t)})()`;
