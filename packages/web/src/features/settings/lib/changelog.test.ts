import { describe, expect, it } from 'vitest';
import changelog from '../../../../../../CHANGELOG.md?raw';
import { changelogBlocks, parseChangelog } from './changelog';
import webPackage from '../../../../package.json';

describe('changelog', () => {
  it('reads entries with their version, date and blocks', () => {
    const entries = parseChangelog(
      '# Changelog\n\n## [1.1.0] - 2025-02-01\n### Added\n- One\n  continued\n- Two\n\n## 1.0.0\nFirst.\n',
    );
    expect(entries.map((e) => [e.version, e.date])).toEqual([
      ['1.1.0', '2025-02-01'],
      ['1.0.0', null],
    ]);
    expect(changelogBlocks(entries[0]?.body ?? '')).toEqual([
      { kind: 'heading', text: 'Added' },
      { kind: 'list', items: ['One continued', 'Two'] },
    ]);
  });

  it('the repository CHANGELOG.md has an entry for the running version', () => {
    const entry = parseChangelog(changelog).find((e) => e.version === webPackage.version);
    expect(entry?.body.length).toBeGreaterThan(100);
  });
});
