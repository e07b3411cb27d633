import { screenFeatures } from './paths';

/** Written by the build (prerender.ts): `feature=file file;feature=file …` per screen. */
export const SCREEN_CHUNKS_META = 'berth-screen-chunks';

/**
 * Fetches the current screen's chunks at once, beside the app: the router asks for them only
 * after the app has loaded and run. On the dashboard (one chunk of its own) bench/dashboard
 * saw no difference; it is meant for screens with several (containers: nine).
 */
export function preloadScreen(path: string): void {
  const feature = screenFeatures[path];
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${SCREEN_CHUNKS_META}"]`);
  if (feature === undefined || meta === null) return;
  const entry = meta.content.split(';').find((e) => e.startsWith(`${feature}=`));
  for (const file of entry?.slice(feature.length + 1).split(' ') ?? []) {
    const link = document.createElement('link');
    link.rel = file.endsWith('.css') ? 'preload' : 'modulepreload';
    if (file.endsWith('.css')) link.as = 'style';
    link.crossOrigin = '';
    link.href = `/${file}`;
    document.head.append(link);
  }
}
