import { afterEach, describe, expect, it } from 'vitest';
import { preloadScreen, SCREEN_CHUNKS_META } from './preload-screen';

const links = () =>
  [...document.head.querySelectorAll('link')].map((l) => `${l.rel} ${l.getAttribute('href')}`);

describe('preloadScreen', () => {
  afterEach(() => {
    document.head.innerHTML = '';
  });

  const withMeta = (content: string) => {
    const meta = document.createElement('meta');
    meta.name = SCREEN_CHUNKS_META;
    meta.content = content;
    document.head.append(meta);
  };

  it("preloads the current screen's scripts and stylesheet, and no other screen's", () => {
    withMeta('alerts=assets/alerts-1.js;dashboard=assets/dashboard-2.js assets/dashboard-3.css');
    preloadScreen('/');
    expect(links()).toEqual([
      'modulepreload /assets/dashboard-2.js',
      'preload /assets/dashboard-3.css',
    ]);
  });

  it('maps two paths to one feature, and does nothing for an unknown path or no meta', () => {
    withMeta('alerts=assets/alerts-1.js;dashboard=assets/dashboard-2.js');
    preloadScreen('/alerts/rules');
    expect(links()).toEqual(['modulepreload /assets/alerts-1.js']);
    preloadScreen('/nowhere');
    expect(links()).toHaveLength(1);
    document.head.innerHTML = '';
    preloadScreen('/');
    expect(links()).toEqual([]);
  });
});
