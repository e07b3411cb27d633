import { describe, expect, it } from 'vitest';
import { clampTerminalSize, execClientMessageSchema, execStartSchema, EXEC_SIZE } from './exec.js';

describe('the container shell messages', () => {
  it('clamps absurd sizes to the bounds and replaces what is not a number', () => {
    expect(clampTerminalSize(100_000, -5)).toEqual({ cols: EXEC_SIZE.maxCols, rows: 1 });
    expect(clampTerminalSize(0, 1e9)).toEqual({ cols: EXEC_SIZE.minCols, rows: EXEC_SIZE.maxRows });
    expect(clampTerminalSize(Number.NaN, Number.POSITIVE_INFINITY)).toEqual({ cols: 80, rows: 24 });
    expect(clampTerminalSize(120.4, 39.6)).toEqual({ cols: 120, rows: 40 });
  });

  it('takes a start with a shell or a custom command, and names the bad field', () => {
    const ok = { type: 'start', command: ' /bin/bash ', user: '1000:1000', cols: 80, rows: 24 };
    expect(execStartSchema.parse(ok).command).toBe('/bin/bash');
    const bad = (patch: object) => execStartSchema.safeParse({ ...ok, ...patch }).error?.issues[0];
    expect(bad({ command: '' })?.path).toEqual(['command']);
    expect(bad({ command: 'x'.repeat(501) })?.path).toEqual(['command']);
    expect(bad({ user: 'root; rm' })?.path).toEqual(['user']);
    expect(bad({ cols: 'wide' })?.path).toEqual(['cols']);
    expect(bad({ extra: 1 })).toBeDefined();
  });

  it('tells input, resize and unknown messages apart', () => {
    expect(execClientMessageSchema.safeParse({ type: 'input', data: 'ls\r' }).success).toBe(true);
    expect(execClientMessageSchema.safeParse({ type: 'resize', cols: 1, rows: 1 }).success).toBe(
      true,
    );
    expect(execClientMessageSchema.safeParse({ type: 'kill' }).success).toBe(false);
    expect(
      execClientMessageSchema.safeParse({ type: 'input', data: 'x'.repeat(5000) }).success,
    ).toBe(false);
  });
});
