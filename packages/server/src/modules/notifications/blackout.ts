import type { BlackoutWindow } from '@berth/contracts';

const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/**
 * The enabled window covering `now`, or null. Times are the user's local time
 * (UTC + timezone_offset minutes); days 0 = Monday ... 6 = Sunday. A window whose end is
 * before its start runs across midnight: its after-midnight part belongs to the day it
 * started on. Equal start and end cover the whole day.
 */
export function activeWindow(
  windows: readonly BlackoutWindow[],
  offsetMinutes: number,
  now: number,
): BlackoutWindow | null {
  const local = new Date(now + offsetMinutes * 60_000);
  const day = (local.getUTCDay() + 6) % 7;
  const previous = (day + 6) % 7;
  const minute = local.getUTCHours() * 60 + local.getUTCMinutes();
  for (const w of windows) {
    if (!w.enabled) continue;
    const start = minutesOf(w.start_time);
    const end = minutesOf(w.end_time);
    const on = (d: number) => w.days.includes(d);
    if (start === end) {
      if (on(day)) return w;
    } else if (start < end) {
      if (on(day) && minute >= start && minute < end) return w;
    } else if ((on(day) && minute >= start) || (on(previous) && minute < end)) {
      return w;
    }
  }
  return null;
}
