import { describe, expect, it } from 'vitest';
import { newestTag, parseTag } from './versions.js';

// Tag lists as the registries answer them (trimmed), in registry order.
const postgres = [
  '15',
  '15.5',
  '15.6',
  '15-alpine',
  '15.6-alpine',
  '16',
  '16.1',
  '16.2',
  '16.3',
  '16.3-alpine',
  '16.3-alpine3.19',
  '16.3-alpine3.20',
  '16.2-bookworm',
  '16.3-bookworm',
  '17beta1',
  '17',
  '17.0',
  '17-rc1',
  '17.0-alpine',
  '17.1-bookworm',
  'latest',
  'alpine',
  'bookworm',
  '9.6.24',
];
const nginx = [
  '1.24.0',
  '1.25.0',
  '1.25.3',
  '1.25.4',
  '1.25.5-alpine',
  '1.25.4-alpine',
  '1.26.0',
  '1.26.1',
  '1.27.0',
  '1.27.1-alpine-slim',
  '1.27.0-alpine-slim',
  'mainline',
  'stable',
  'latest',
  '1.27',
  '1.26',
  '1',
  'alpine',
  '1.27.0-perl',
  '1.28.0-rc1',
];
const node = [
  '18.19.0',
  '18.20.4',
  '18.20.4-alpine3.19',
  '18.20.3-alpine3.19',
  '20.11.0-alpine3.19',
  '20.12.2-alpine3.19',
  '20.12.2-alpine3.20',
  '20.15.1-bookworm-slim',
  '20.14.0-bookworm-slim',
  '20',
  '20-alpine',
  '22.4.1',
  '22.5.0',
  'lts',
  'current-alpine',
  'hydrogen',
  '23.0.0-nightly',
];
const linuxserver = [
  '4.0.1-ls120',
  '4.0.1-ls121',
  '4.0.2-ls122',
  '4.1.0-ls123',
  '5.0.0-ls124',
  'latest',
  'version-4.0.1-ls121',
  'version-4.0.2-ls122',
  'develop',
  'amd64-4.0.2-ls122',
  '1.40.0.7998-c29d4c0c8-ls199',
  '1.40.1.8227-c0dd5a73e-ls210',
  '1.41.0.8992-8463ad060-ls230',
];
const dated = [
  '20231201',
  '20240115',
  '20240301',
  '2024-01-15',
  '2024-03-01',
  'RELEASE.2024-01-16T16-07-38Z',
  'RELEASE.2024-03-05T04-48-44Z',
  'RELEASE.2023-12-20T01-00-02Z',
  'RELEASE.2024-01-01T16-36-33Z-cpuv1',
  '2024.1.3',
  '2024.2.0',
  '2024.10.1',
  '2024.10.10',
  '2023.12.4',
  'dev',
  'stable',
];

describe('newest tag by tracking mode', () => {
  it('postgres: majors, minors and variants stay within their scheme', () => {
    expect(newestTag('16.1', postgres, 'patch')).toBeNull(); // no 16.1.x in the list
    expect(newestTag('16.1', postgres, 'minor')).toBe('16.3');
    expect(newestTag('16.1', postgres, 'latest')).toBe('17.0');
    expect(newestTag('16', postgres, 'minor')).toBe('16.3'); // 16 reads 16.0; 17 is another major
    expect(newestTag('16', postgres, 'latest')).toBe('17'); // not 17beta1, 17-rc1 nor 17.0
    expect(newestTag('16.2-bookworm', postgres, 'minor')).toBe('16.3-bookworm');
    expect(newestTag('16.2-bookworm', postgres, 'latest')).toBe('17.1-bookworm');
    expect(newestTag('16.3-alpine3.19', postgres, 'latest')).toBeNull(); // alpine3.20 is not it
    expect(newestTag('15-alpine', postgres, 'latest')).toBe('17.0-alpine');
    expect(newestTag('15-alpine', postgres, 'minor')).toBe('15.6-alpine');
    expect(newestTag('15.6-alpine', postgres, 'latest')).toBe('17.0-alpine');
    expect(newestTag('9.6.24', postgres, 'latest')).toBe('17.0'); // 17.0 reads 17.0.0
    expect(newestTag('9.6.24', postgres, 'minor')).toBeNull(); // no other 9.x
    expect(newestTag('latest', postgres, 'latest')).toBeNull();
    expect(newestTag('17.0', postgres, 'latest')).toBeNull(); // never a lower tag
  });

  it('nginx: patch, minor, latest; variants and pre-releases', () => {
    expect(newestTag('1.25.3', nginx, 'exact')).toBeNull();
    expect(newestTag('1.25.3', nginx, 'patch')).toBe('1.25.4');
    expect(newestTag('1.25.3', nginx, 'minor')).toBe('1.27.0');
    expect(newestTag('1.25.3', nginx, 'latest')).toBe('1.27.0'); // 1.28.0-rc1 is a pre-release
    expect(newestTag('1.25.4-alpine', nginx, 'patch')).toBe('1.25.5-alpine');
    expect(newestTag('1.27.0-alpine-slim', nginx, 'patch')).toBe('1.27.1-alpine-slim');
    expect(newestTag('1.27.0-perl', nginx, 'latest')).toBeNull();
    expect(newestTag('1.26', nginx, 'minor')).toBe('1.27');
    expect(newestTag('1', nginx, 'latest')).toBe('1.27'); // 1.27 and 1.27.0 alike; 1.27 is closer
    expect(newestTag('1.27', nginx, 'patch')).toBeNull(); // 1.27.0 is the same version
    expect(newestTag('mainline', nginx, 'latest')).toBeNull();
    expect(newestTag('1.28.0-rc1', [...nginx, '1.28.0-rc2', '1.28.0'], 'patch')).toBe('1.28.0');
    expect(newestTag('1.28.0-rc1', [...nginx, '1.28.0-rc2'], 'patch')).toBe('1.28.0-rc2');
  });

  it('node: alpine releases must match exactly', () => {
    expect(newestTag('18.19.0', node, 'minor')).toBe('18.20.4');
    expect(newestTag('18.20.3-alpine3.19', node, 'patch')).toBe('18.20.4-alpine3.19');
    expect(newestTag('20.11.0-alpine3.19', node, 'minor')).toBe('20.12.2-alpine3.19');
    expect(newestTag('20.11.0-alpine3.19', node, 'latest')).toBe('20.12.2-alpine3.19');
    expect(newestTag('20.14.0-bookworm-slim', node, 'patch')).toBeNull();
    expect(newestTag('20.14.0-bookworm-slim', node, 'minor')).toBe('20.15.1-bookworm-slim');
    expect(newestTag('18.19.0', node, 'latest')).toBe('22.5.0'); // not 23.0.0-nightly
    expect(newestTag('20-alpine', node, 'latest')).toBeNull();
  });

  it('linuxserver: -ls build numbers, version- prefixes and hashes', () => {
    expect(newestTag('4.0.1-ls120', linuxserver, 'exact')).toBeNull();
    expect(newestTag('4.0.1-ls120', linuxserver, 'patch')).toBe('4.0.2-ls122');
    expect(newestTag('4.0.1-ls120', linuxserver, 'minor')).toBe('4.1.0-ls123');
    expect(newestTag('4.0.1-ls120', linuxserver, 'latest')).toBe('5.0.0-ls124');
    expect(newestTag('version-4.0.1-ls121', linuxserver, 'latest')).toBe('version-4.0.2-ls122');
    const plex = linuxserver.filter((t) => t.startsWith('1.4'));
    expect(newestTag('1.40.0.7998-c29d4c0c8-ls199', plex, 'latest')).toBe(
      '1.41.0.8992-8463ad060-ls230',
    );
    // In one list, 5.0.0 (5.0.0.0) is newer than 1.41.0.8992.
    expect(newestTag('1.40.0.7998-c29d4c0c8-ls199', linuxserver, 'latest')).toBe('5.0.0-ls124');
    expect(newestTag('1.40.0.7998-c29d4c0c8-ls199', linuxserver, 'patch')).toBe(
      '1.40.1.8227-c0dd5a73e-ls210',
    );
    expect(newestTag('4.0.2-ls122', ['4.0.2-ls121', '4.0.2-ls125', '4.0.3'], 'patch')).toBe(
      '4.0.2-ls125',
    );
  });

  it('dates compare within their own form; calendar versions like semver', () => {
    expect(parseTag('20240115')?.scheme).toBe('date');
    expect(newestTag('20231201', dated, 'latest')).toBe('20240301');
    expect(newestTag('20231201', dated, 'minor')).toBeNull();
    expect(newestTag('2024-01-15', dated, 'latest')).toBe('2024-03-01');
    expect(newestTag('RELEASE.2024-01-16T16-07-38Z', dated, 'latest')).toBe(
      'RELEASE.2024-03-05T04-48-44Z',
    );
    expect(newestTag('2024.1.3', dated, 'minor')).toBe('2024.10.10');
    expect(newestTag('2024.10.1', dated, 'patch')).toBe('2024.10.10');
    expect(newestTag('2023.12.4', dated, 'minor')).toBeNull();
  });

  it('tags with fewer parts read the missing ones as 0', () => {
    const tags = ['1.0', '1.0.1', '1.1', '1.1.0', '2', '2.0.0-rc1', 'latest'];
    expect(newestTag('1.0', tags, 'exact')).toBeNull();
    expect(newestTag('1.0', tags, 'patch')).toBe('1.0.1');
    expect(newestTag('1.0', tags, 'minor')).toBe('1.1'); // written like 1.0, not 1.1.0
    expect(newestTag('1.0', tags, 'latest')).toBe('2');
    expect(newestTag('1.0', ['1.0.1', '1.1.0'], 'patch')).toBe('1.0.1');
    expect(newestTag('1.0', ['1.0.1', '1.1.0'], 'minor')).toBe('1.1.0');
    expect(newestTag('1.0', ['1.0.1', '1.1.0'], 'latest')).toBe('1.1.0');
    expect(newestTag('1.0', ['1.0.0', '0.9.9', '1'], 'latest')).toBeNull(); // same or lower
    expect(newestTag('1.0.1', tags, 'patch')).toBeNull(); // 1.1 is another minor
    expect(newestTag('1.0.1', tags, 'minor')).toBe('1.1.0');
    expect(newestTag('1.1.0', ['1.1', '1.1.0', '1.2'], 'minor')).toBe('1.2');
    expect(newestTag('v1', ['v1.0.1', 'v1.1', 'v2', '1.0.1', 'v1.0.1-alpine'], 'patch')).toBe(
      'v1.0.1',
    );
    expect(newestTag('v1', ['v1.0.1', 'v1.1', 'v2', '1.0.1'], 'minor')).toBe('v1.1');
    expect(newestTag('v1', ['v1.0.1', 'v1.1', 'v2', '1.0.1'], 'latest')).toBe('v2');
    // The choice between equal versions does not follow the registry's order.
    expect(newestTag('16', ['17.0', '17'], 'latest')).toBe('17');
    expect(newestTag('16.1', ['17', '17.0'], 'latest')).toBe('17.0');
    expect(newestTag('1.0', ['1.1.0.0', '1.1.0'], 'minor')).toBe('1.1.0');
  });

  it('v prefixes must match; unrelated tags are never updates', () => {
    const tags = ['v1.2.3', 'v1.2.4', 'v1.3.0', '1.9.9', 'v2.0.0-beta.1', 'latest', 'v1.2.10'];
    expect(newestTag('v1.2.3', tags, 'patch')).toBe('v1.2.10');
    expect(newestTag('v1.2.3', tags, 'latest')).toBe('v1.3.0');
    expect(newestTag('1.2.3', tags, 'latest')).toBe('1.9.9');
    expect(newestTag('sha-abc1234', tags, 'latest')).toBeNull();
    expect(parseTag('latest')).toBeNull();
    expect(parseTag('1.2.3.4.5')).toBeNull();
  });
});
