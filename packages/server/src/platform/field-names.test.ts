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

  it('keeps a message that names its field, and puts the name before one that does not', () => {
    const at = (path: string, message: string) => fieldMessage(path.split('/'), message);
    expect(at('cooldown_seconds', 'Cooldown must be at least 0')).toBe(
      'Cooldown must be at least 0',
    );
    expect(at('cooldown_seconds', 'must be a number')).toBe('Cooldown must be a number');
    expect(at('polling_interval', 'Must be between 1 and 600')).toBe(
      'Polling interval must be between 1 and 600',
    );
    expect(at('state', 'Cannot annotate a resolved alert')).toBe(
      'State: Cannot annotate a resolved alert',
    );
    expect(at('username', 'Required')).toBe('Username is required');
    expect(at('health_check_timeout_seconds', 'Timeout must be between 10 and 600 seconds')).toBe(
      'Timeout must be between 10 and 600 seconds',
    );
    expect(at('name', 'Channel name is required')).toBe('Channel name is required');
    expect(at('enabled', 'enabled must be true or false')).toBe('Enabled must be true or false');
    expect(at('host_selector_json', 'Unknown host: h1')).toBe('Unknown host: h1');
    expect(at('kind', 'Unknown rule kind')).toBe('Unknown rule kind');
    expect(at('start_date', 'Invalid date; use ISO 8601')).toBe(
      'Start date: Invalid date; use ISO 8601',
    );
    expect(at('state', 'Alert is not snoozed')).toBe('Alert is not snoozed');
    expect(at('url', 'Address/Endpoint is required')).toBe('Address/Endpoint is required');
    expect(at('search', 'Invalid regular expression: (')).toBe(
      'Search: Invalid regular expression: (',
    );
    expect(at('/severity/0', 'Severity must be one of x')).toBe('Severity must be one of x');
    expect(at('/container_selector_json/include', 'must be a list')).toBe(
      'Containers: Include must be a list',
    );
    expect(at('', 'Unknown field: nope')).toBe('Unknown field: nope');
    expect(at('/params/enabled', 'Required')).toBe('Enabled is required');
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
