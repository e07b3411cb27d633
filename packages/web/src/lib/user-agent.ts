/** Browsers in the order they must be tested: Edge and Opera also say Chrome, Chrome says Safari. */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bChrom(?:e|ium)\/|HeadlessChrome\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/^curl\//, 'curl'],
];

/** Systems in the order they must be tested: Android says Linux, iOS says Mac OS X. */
const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

const first = (ua: string, list: [RegExp, string][]) =>
  list.find(([pattern]) => pattern.test(ua))?.[1] ?? null;

/**
 * A session's device as people name it, from its user agent: "Chrome on Linux", "Safari on
 * iOS", "Firefox"; the raw text (cut short) when neither is known, "Unknown device" without one.
 */
export function deviceOf(userAgent: string | null): string {
  if (userAgent === null || userAgent.trim() === '') return 'Unknown device';
  const browser = first(userAgent, BROWSERS);
  const system = first(userAgent, SYSTEMS);
  if (browser !== null && system !== null) return `${browser} on ${system}`;
  if (browser !== null || system !== null) return browser ?? system ?? '';
  return userAgent.length > 40 ? `${userAgent.slice(0, 40)}…` : userAgent;
}
