import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';

const PEM = '-----BEGIN PRIVATE KEY-----\nMIIB...\n-----END PRIVATE KEY-----\n';

describe('SecretBox', () => {
  it('creates a 0600 key file once and round-trips secrets with it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-secret-'));
    const box = SecretBox.open(dir);
    const sealed = box.seal(PEM);
    expect(sealed).not.toContain('PRIVATE KEY');
    expect(statSync(join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    const key = readFileSync(join(dir, 'secret.key'), 'utf8');
    expect(SecretBox.open(dir).open(sealed)).toBe(PEM);
    expect(readFileSync(join(dir, 'secret.key'), 'utf8')).toBe(key);
  });

  it('seals the same text differently each time and refuses altered or foreign values', () => {
    const box = SecretBox.open(mkdtempSync(join(tmpdir(), 'berth-secret-')));
    const other = SecretBox.open(mkdtempSync(join(tmpdir(), 'berth-secret-')));
    const sealed = box.seal('token');
    expect(box.seal('token')).not.toBe(sealed);
    expect(() => other.open(sealed)).toThrow();
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered)).toThrow();
    expect(() => box.open('plain text')).toThrow('not a sealed secret');
  });
});
