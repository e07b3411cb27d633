import { describe, expect, it } from 'vitest';
import {
  alertRuleCreateSchema,
  alertRuleDefaults,
  alertRuleIssue,
  alertRuleUpdateSchema,
  kindsForScope,
} from './alert-rules.js';

const firstIssue = (r: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => r.error?.issues[0];

describe('alert rule payloads', () => {
  it('needs name, scope, kind and severity, and defaults the rest later', () => {
    const ok = alertRuleCreateSchema.safeParse({
      name: ' CPU ',
      scope: 'host',
      kind: 'cpu_high',
      severity: 'warning',
    });
    expect(ok.success).toBe(true);
    expect(ok.data?.name).toBe('CPU');
    const missing = alertRuleCreateSchema.safeParse({
      scope: 'host',
      kind: 'cpu_high',
      severity: 'info',
    });
    expect(firstIssue(missing)).toMatchObject({ path: ['name'], message: 'Name is required' });
  });

  it('bounds numbers and refuses unknown keys', () => {
    const bad = (over: object) => firstIssue(alertRuleUpdateSchema.safeParse(over))?.path.join('.');
    expect(bad({ threshold: 101 })).toBe('threshold');
    expect(bad({ occurrences: 0 })).toBe('occurrences');
    expect(bad({ cooldown_seconds: -1 })).toBe('cooldown_seconds');
    expect(bad({ operator: '==' })).toBe('operator');
    expect(bad({ nope: 1 })).toBe('');
    expect(alertRuleUpdateSchema.parse({ threshold: 90.04 }).threshold).toBe(90);
  });

  it('checks the kind against the scope and metric kinds’ duration', () => {
    expect(kindsForScope('host')).toEqual(['cpu_high', 'memory_high', 'disk_low', 'host_down']);
    const base = {
      metric: null,
      clear_threshold: null,
      threshold: null,
      operator: null,
      duration_seconds: 0,
    };
    expect(alertRuleIssue({ ...base, scope: 'host', kind: 'container_stopped' })?.field).toBe(
      'kind',
    );
    expect(alertRuleIssue({ ...base, scope: 'host', kind: 'cpu_high' })?.field).toBe(
      'duration_seconds',
    );
    expect(alertRuleIssue({ ...base, scope: 'container', kind: 'container_stopped' })).toBeNull();
    expect(alertRuleDefaults('disk_low')).toMatchObject({
      threshold: 85,
      duration_seconds: 300,
      cooldown_seconds: 300,
    });
    expect(alertRuleDefaults('host_down')).toMatchObject({
      duration_seconds: 0,
      occurrences: 1,
      cooldown_seconds: 15,
      clear_duration_seconds: 30,
    });
  });
});

describe('both spellings of the JSON fields', () => {
  const parse = (over: object) => alertRuleUpdateSchema.safeParse(over);

  it('takes a selector or a channel list as the value or as its JSON text', () => {
    const asText = parse({
      host_selector_json: '{"include_all":true}',
      container_selector_json: { include: ['web'], tags: ['Prod'] },
      notify_channels_json: '[1, "2"]',
    });
    expect(asText.data).toEqual({
      host_selector_json: { include_all: true, include: [], tags: [] },
      container_selector_json: { include_all: false, include: ['web'], tags: ['prod'] },
      notify_channels_json: [1, 2],
    });
    expect(parse({ host_selector_json: 'null' }).data).toEqual({ host_selector_json: null });
    expect(parse({ notify_channels_json: [3, '3', ' 4 '] }).data).toEqual({
      notify_channels_json: [3, 4],
    });
  });

  it('refuses text that is not JSON and JSON of the wrong shape, naming the field', () => {
    const issue = (over: object) => {
      const i = firstIssue(parse(over));
      return i === undefined ? undefined : `${i.path.join('.')}: ${i.message}`;
    };
    expect(issue({ host_selector_json: '{include_all:true' })).toBe(
      'host_selector_json: Hosts must be a selector object or its JSON text',
    );
    expect(issue({ container_selector_json: 'web' })).toBe(
      'container_selector_json: Containers must be a selector object or its JSON text',
    );
    expect(issue({ notify_channels_json: '1,2' })).toBe(
      'notify_channels_json: Notification channels must be a list of channel ids or its JSON text',
    );
    expect(issue({ host_selector_json: '[1]' })).toMatch(/^host_selector_json: /);
    expect(issue({ host_selector_json: '{"include":"h1"}' })).toMatch(
      /^host_selector_json\.include: /,
    );
    expect(issue({ notify_channels_json: '{"id":1}' })).toBe(
      'notify_channels_json: Notification channels must be a list of channel ids',
    );
    for (const bad of ['["discord"]', '[0]', '[1.5]', '[true]', '["-1"]'])
      expect(issue({ notify_channels_json: bad }), bad).toBe(
        'notify_channels_json.0: Notification channels must be channel ids (numbers)',
      );
  });
});

describe('the clear threshold', () => {
  const shape = (operator: '>=' | '>' | '<=' | '<', threshold: number, clear: number) =>
    alertRuleIssue({
      scope: 'host',
      kind: 'cpu_high',
      metric: 'cpu_percent',
      duration_seconds: 60,
      operator,
      threshold,
      clear_threshold: clear,
    });

  it('sits at or below the threshold of an above rule, at or above that of a below rule', () => {
    expect(shape('>=', 90, 80)).toBeNull();
    expect(shape('>', 90, 90)).toBeNull();
    expect(shape('<=', 10, 20)).toBeNull();
    expect(shape('<', 10, 10)).toBeNull();
    expect(shape('>=', 90, 95)).toEqual({
      field: 'clear_threshold',
      message: 'Clear threshold must be at or below the threshold (90) for a >= rule',
    });
    expect(shape('>', 90, 90.1)?.field).toBe('clear_threshold');
    expect(shape('<=', 10, 5)).toEqual({
      field: 'clear_threshold',
      message: 'Clear threshold must be at or above the threshold (10) for a <= rule',
    });
    expect(shape('<', 10, 9.9)?.field).toBe('clear_threshold');
  });
});
