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
    const base = { metric: null, clear_threshold: null, threshold: null, duration_seconds: 0 };
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
