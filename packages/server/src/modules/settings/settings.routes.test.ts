import { DEFAULT_SETTINGS } from '@berth/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, signedInCookie, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let cookie: string;
beforeEach(async () => {
  t = await buildTestApp();
  cookie = await signedInCookie(t.app);
});
afterEach(() => t.close());

const put = (payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: { cookie },
    payload: payload as object,
  });
const get = () => t.app.inject({ url: '/api/settings', headers: { cookie } });

describe('global settings', () => {
  it('starts with the default settings', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ...DEFAULT_SETTINGS,
      update_available: false,
      latest_available_version: null,
      latest_release_url: null,
    });
    expect(res.json()).toMatchObject({
      polling_interval: 2,
      connection_timeout: 10,
      max_retries: 3,
      retry_delay: 30,
      event_retention_days: 60,
      alert_retention_days: 90,
      unused_tag_retention_days: 30,
      update_check_time: '02:00',
      skip_compose_containers: true,
      health_check_timeout_seconds: 120,
      default_auto_restart: false,
    });
  });

  it('updates only the fields sent and keeps them across a restart', async () => {
    const res = await put({ polling_interval: 5, timezone_offset: 60 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ polling_interval: 5, timezone_offset: 60, max_retries: 3 });
    await t.restart();
    expect((await get()).json()).toMatchObject({ polling_interval: 5, timezone_offset: 60 });
  });

  it.each([
    [{ polling_interval: 0 }, 'Polling interval must be between 1 and 600'],
    [{ polling_interval: 601 }, 'Polling interval must be between 1 and 600'],
    [{ connection_timeout: 4 }, 'Connection timeout must be between 5 and 120'],
    [{ max_retries: 11 }, 'Max retries must be between 0 and 10'],
    [{ retry_delay: 301 }, 'Retry delay must be between 5 and 300'],
    [{ event_retention_days: 366 }, 'Event retention must be between 0 and 365'],
    [{ unused_tag_retention_days: -1 }, 'Unused tag retention must be between 0 and 365'],
    [{ alert_retention_days: 731 }, 'Alert retention must be between 0 and 730'],
    [{ update_check_time: '24:00' }, 'Update check time: Invalid time format'],
    [{ polling_interval: '5' }, 'Polling interval must be a number'],
    [{ history_10s_retention_hours: 0 }, '10-second history must be between 1 and 168'],
    [{ history_15m_retention_hours: 17_521 }, '15-minute history must be between 1 and 17520'],
    [{ exec_idle_minutes: 0 }, 'Shell idle timeout must be between 1 and 1440'],
    // A coarser history tier keeps at least as long as the finer one it is rolled up from.
    [
      { history_1m_retention_hours: 12 },
      "1-minute history must be at least the 10-second history's 24 hours",
    ],
    [
      { history_10s_retention_hours: 48, history_1m_retention_hours: 36 },
      "1-minute history must be at least the 10-second history's 48 hours",
    ],
    [
      { history_15m_retention_hours: 100 },
      "15-minute history must be at least the 1-minute history's 168 hours",
    ],
  ])('refuses %j with a 400 naming the field: %s', async (body, message) => {
    const res = await put(body);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toMatch(new RegExp(`^${message}`));
    expect((await get()).json()).toMatchObject({ polling_interval: 2 });
  });

  it('takes history tiers changed together in one request, each checked against the others', async () => {
    const res = await put({
      history_10s_retention_hours: 2,
      history_1m_retention_hours: 2,
      history_15m_retention_hours: 2,
    });
    expect(res.statusCode).toBe(200);
    // Lowering the finer tier first, then the coarser one, works one request at a time too.
    expect((await put({ history_10s_retention_hours: 1 })).statusCode).toBe(200);
    expect((await put({ history_1m_retention_hours: 1 })).statusCode).toBe(200);
    // An unrelated change is not held back by the tiers.
    expect((await put({ polling_interval: 3 })).statusCode).toBe(200);
  });

  it('uses the spec messages for the health check timeout and the check time', async () => {
    expect((await put({ health_check_timeout_seconds: 9 })).json()).toEqual({
      detail: 'Timeout must be between 10 and 600 seconds',
    });
    expect((await put({ update_check_time: '7pm' })).json()).toEqual({
      detail: 'Update check time: Invalid time format. Use HH:MM (24-hour format)',
    });
  });

  it('refuses unknown and read-only fields', async () => {
    expect((await put({ colour: 'blue' })).statusCode).toBe(400);
    expect((await put({ update_available: true })).statusCode).toBe(400);
  });

  it('keeps blackout windows with their days', async () => {
    const window = {
      name: 'Nightly',
      enabled: true,
      start_time: '22:00',
      end_time: '06:00',
      days: [0, 1, 2, 3, 4],
    };
    expect((await put({ blackout_windows: [window] })).json()).toMatchObject({
      blackout_windows: [window],
    });
    expect((await put({ blackout_windows: [{ ...window, days: [7] }] })).statusCode).toBe(400);
  });
});
