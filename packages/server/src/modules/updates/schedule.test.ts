import { describe, expect, it } from 'vitest';
import { dailyCheckJob } from './schedule.js';

describe('daily update check schedule', () => {
  it('runs at update_check_time on the clock timezone_offset minutes east of UTC', () => {
    const job = dailyCheckJob('02:30', 90, () => Promise.resolve());
    try {
      // 02:30 at +01:30 is 01:00 UTC.
      expect(job.nextRun(new Date('2026-01-10T00:00:00Z'))).toEqual(
        new Date('2026-01-10T01:00:00Z'),
      );
      expect(job.nextRun(new Date('2026-01-10T01:00:00Z'))).toEqual(
        new Date('2026-01-11T01:00:00Z'),
      );
      expect(job.nextRun()?.getTime()).toBeGreaterThan(Date.now());
    } finally {
      job.stop();
    }
  });

  it('follows a negative offset across the UTC day', () => {
    const job = dailyCheckJob('23:15', -300, () => Promise.resolve());
    try {
      // 23:15 at -05:00 is 04:15 UTC the next day.
      expect(job.nextRun(new Date('2026-01-10T12:00:00Z'))).toEqual(
        new Date('2026-01-11T04:15:00Z'),
      );
    } finally {
      job.stop();
    }
  });
});
