import { describe, expect, it } from 'vitest';
import { dieIntent, signalNumber, type DyingContainer } from './stop-intent.js';

// The ways a container ends, with the kill events (their signals) and exit code each leaves.
const c = (exitCode: number | null, more: Partial<DyingContainer> = {}): DyingContainer => ({
  exitCode,
  restartPolicy: 'no',
  stopSignal: null,
  autoRemove: false,
  ...more,
});

describe('why a container died, from its kill events', () => {
  it('a crash, an exit of its own and the OOM killer (no kill before) were not asked for', () => {
    expect(dieIntent([], c(1))).toBe('unasked');
    expect(dieIntent([], c(0))).toBe('unasked');
    expect(dieIntent([], c(137))).toBe('unasked');
    expect(dieIntent([], c(1, { restartPolicy: null }))).toBe('unasked');
  });

  it('one SIGKILL alone is a docker kill, unless the engine is removing the container', () => {
    expect(dieIntent(['9'], c(137))).toBe('killed');
    expect(dieIntent(['SIGKILL'], c(137, { stopSignal: 'SIGTERM' }))).toBe('killed');
  });

  it('a stop or restart begins with the stop signal: graceful, or SIGKILLed after the timeout', () => {
    expect(dieIntent(['15'], c(0))).toBe('asked');
    expect(dieIntent(['15'], c(143))).toBe('asked');
    // An image that ignores SIGTERM (busybox httpd as PID 1): killed when the timeout ends.
    expect(dieIntent(['15', '9'], c(137))).toBe('asked');
    expect(dieIntent(['3', '9'], c(137, { stopSignal: 'SIGQUIT' }))).toBe('asked');
    expect(dieIntent(['SIGINT'], c(130, { stopSignal: 'INT' }))).toBe('asked');
  });

  it('asked for is asked for, whatever restarts or removes the container afterwards', () => {
    expect(dieIntent(['15', '9'], c(137, { restartPolicy: 'always' }))).toBe('asked');
    expect(dieIntent(['15'], c(0, { autoRemove: true }))).toBe('asked');
  });

  it('a container whose own stop signal is SIGKILL waits for its stop event, in every spelling', () => {
    for (const stopSignal of ['SIGKILL', 'KILL', '9', 'sigkill'])
      expect(dieIntent(['9'], c(137, { stopSignal }))).toBe('unsure');
  });

  it('another signal first (docker kill -s, docker stop --signal) waits for a stop event', () => {
    expect(dieIntent(['2'], c(130))).toBe('unsure');
    expect(dieIntent(['9', '9'], c(137))).toBe('unsure');
  });

  it('a container the engine restarts or removes itself waits', () => {
    expect(dieIntent([], c(1, { autoRemove: true }))).toBe('unsure');
    expect(dieIntent(['9'], c(137, { restartPolicy: 'always' }))).toBe('unsure');
    expect(dieIntent([], c(1, { restartPolicy: 'on-failure' }))).toBe('unsure');
  });
});

describe('signalNumber', () => {
  it('reads numbers and names with or without SIG, in any case', () => {
    expect(['15', 'TERM', 'SIGTERM', 'sigterm', ' 15 '].map(signalNumber)).toEqual([
      15, 15, 15, 15, 15,
    ]);
    expect(signalNumber('SIGKILL')).toBe(9);
    expect(signalNumber(null)).toBeNull();
    expect(signalNumber('NOPE')).toBeNull();
  });
});
