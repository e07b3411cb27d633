import { describe, expect, it } from 'vitest';
import { readableInput } from './recording-text';

describe('readableInput', () => {
  it('shows Enter as the end of a line, editing keys as their symbols', () => {
    expect(readableInput('ls -la\rcd /tmpp\x7f\r')).toBe('ls -la⏎\ncd /tmpp⌫⏎\n');
    expect(readableInput('\x1b[A\x1b[A\r')).toBe('↑↑⏎\n');
    expect(readableInput('cat f\t\x03')).toBe('cat f⇥^C');
  });

  it("leaves out the terminal's own replies to the shell", () => {
    expect(readableInput('\x1b[6;5Recho hi\r\x1b[?1;2c')).toBe('echo hi⏎\n');
  });

  it('keeps an unknown escape sequence visible rather than acting on it', () => {
    expect(readableInput('\x1b[200~pasted\x1b[201~')).toBe('⎋[200~pasted⎋[201~');
    expect(readableInput('')).toBe('');
  });
});
