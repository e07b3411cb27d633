import { describe, expect, it } from 'vitest';
import { fieldDetail, fieldLabel, fieldMessage } from './field-names.js';

describe('fields named in words', () => {
  it('reads a key as the form names it', () => {
    expect(fieldLabel('cooldown_seconds')).toBe('Cooldown');
    expect(fieldLabel('clear_duration_seconds')).toBe('Clear duration');
    expect(fieldLabel('health_check_timeout_seconds')).toBe('Health check timeout');
    expect(fieldLabel('event_retention_days')).toBe('Event retention');
    expect(fieldLabel('web_ui_url')).toBe('Web UI URL');
    expect(fieldLabel('chat_id')).toBe('Chat ID');
    expect(fieldLabel('headers_json')).toBe('Headers');
    expect(fieldLabel('host_selector_json')).toBe('Hosts');
    expect(fieldLabel('notify_channels_json')).toBe('Notification channels');
    expect(fieldLabel('sidebar_collapsed')).toBe('Sidebar collapsed');
    expect(fieldLabel('showKpiBar')).toBe('Show kpi bar');
    expect(fieldLabel('seconds')).toBe('Seconds');
  });

  it.each([
    // Already names the field: kept.
    ['cooldown_seconds', 'Cooldown must be at least 0', 'Cooldown must be at least 0'],
    ['health_check_timeout_seconds', 'Timeout must be between 10 and 600 s', null],
    ['name', 'Channel name is required', null],
    ['enabled', 'enabled must be true or false', 'Enabled must be true or false'],
    ['host_selector_json', 'Unknown host: h1', null],
    ['kind', 'Unknown rule kind', null],
    ['state', 'Alert is not snoozed', null],
    ['url', 'Address/Endpoint is required', null],
    ['/severity/0', 'Severity must be one of x', null],
    ['', 'Unknown field: nope', null],
    // A predicate or "Required": the label in front.
    ['cooldown_seconds', 'must be a number', 'Cooldown must be a number'],
    ['polling_interval', 'Must be between 1 and 600', 'Polling interval must be between 1 and 600'],
    ['username', 'Required', 'Username is required'],
    ['/params/enabled', 'Required', 'Enabled is required'],
    ['/container_selector_json/include', 'must be a list', 'Containers: Include must be a list'],
    // Anything else: the label and a colon.
    ['state', 'Cannot annotate a resolved alert', 'State: Cannot annotate a resolved alert'],
    ['start_date', 'Invalid date; use ISO 8601', 'Start date: Invalid date; use ISO 8601'],
    ['search', 'Invalid regular expression: (', 'Search: Invalid regular expression: ('],
  ])('%s, %j → %j (null: as written)', (path, message, expected) => {
    expect(fieldMessage(path.split('/'), message)).toBe(expected ?? message);
  });

  it('rewrites a service’s "field: Message" and leaves any other text alone', () => {
    expect(fieldDetail('cooldown_seconds: Cooldown must be at least 0')).toBe(
      'Cooldown must be at least 0',
    );
    expect(fieldDetail('type: The channel type cannot be changed after creation')).toBe(
      'The channel type cannot be changed after creation',
    );
    expect(fieldDetail('search: Invalid regular expression: (')).toBe(
      'Search: Invalid regular expression: (',
    );
    expect(fieldDetail('preferences: must be at most 65536 bytes in all')).toBe(
      'Preferences must be at most 65536 bytes in all',
    );
    for (const text of [
      'Host web is offline',
      'connect: connection refused',
      'Could not check nginx:1.27: unauthorized',
      'Route GET /api/x not found',
    ])
      expect(fieldDetail(text)).toBe(text);
  });
});
