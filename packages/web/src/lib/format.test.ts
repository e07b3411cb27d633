import { describe, expect, it } from 'vitest';
import { formatRate, formatUptime } from './format';

describe('display formats', () => {
  it('writes network rates in B/s, KB/s and MB/s, and GB/s only where allowed', () => {
    expect(formatRate(512)).toBe('512 B/s');
    expect(formatRate(2048)).toBe('2.0 KB/s');
    expect(formatRate(5 * 1024 ** 2)).toBe('5.0 MB/s');
    expect(formatRate(3 * 1024 ** 3)).toBe('3072.0 MB/s');
    expect(formatRate(3 * 1024 ** 3, true)).toBe('3.0 GB/s');
    expect(formatRate(null)).toBe('—');
  });

  it('writes uptime as Xd Yh, Xh Ym or Xm', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(formatUptime('2026-11-20T09:00:00Z', now)).toBe('2d 3h');
    expect(formatUptime('2026-11-22T10:15:00Z', now)).toBe('1h 45m');
    expect(formatUptime('2026-11-22T11:58:00Z', now)).toBe('2m');
    expect(formatUptime(null, now)).toBe('—');
  });
});
