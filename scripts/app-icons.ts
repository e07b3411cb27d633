/**
 * Renders the installable app's icons (packages/web/public/icons) in Debian's Chromium:
 * `node scripts/app-icons.ts`. They are drawn from the same picture as favicon.png (the SVG
 * it was rendered from in 1dfed22: a sky-blue rounded square, a white ship), so 512 px stays
 * sharp instead of a 64 px bitmap enlarged. The maskable icon fills the whole square (the
 * launcher cuts its own shape) and keeps the ship inside the central 80 % safe zone.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const OUT = resolve(import.meta.dirname, '../packages/web/public/icons');
const SHIP = 'M7 20h18l-3 5H10z M10 12h5v6h-5z M17 9h5v9h-5z';
const BLUE = '#0ea5e9';

/** The favicon's picture on a 32-unit grid; `maskable` squares it and shrinks the ship. */
function svg(size: number, maskable: boolean): string {
  const ship = maskable ? `<g transform="translate(16 17) scale(0.8) translate(-16 -17)">` : '<g>';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32">` +
    `<rect width="32" height="32" rx="${maskable ? 0 : 7}" fill="${BLUE}"/>` +
    `${ship}<path d="${SHIP}" fill="white"/></g></svg>`
  );
}

const ICONS = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'icon-maskable-512.png', size: 512, maskable: true },
  // iOS ignores the manifest's icons and wants an opaque square of its own.
  { file: 'apple-touch-icon.png', size: 180, maskable: true },
];

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  for (const icon of ICONS) {
    await page.setViewportSize({ width: icon.size, height: icon.size });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg(icon.size, icon.maskable)}</body></html>`,
    );
    const png = await page.locator('svg').screenshot({ omitBackground: true });
    writeFileSync(join(OUT, icon.file), png);
    console.log(`${icon.file}: ${icon.size}x${icon.size}, ${png.length} bytes`);
  }
} finally {
  await browser.close();
}
