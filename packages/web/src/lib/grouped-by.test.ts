import { describe, expect, it } from 'vitest';
import { groupedBy } from './grouped-by';

describe('groupedBy', () => {
  const byFirstLetter = groupedBy((word: string) => word[0] ?? '');

  it('groups in list order and answers the same list with the same grouping', () => {
    const words = ['apple', 'berry', 'avocado', 'banana', 'cherry'];
    const groups = byFirstLetter(words);
    expect([...groups.entries()]).toEqual([
      ['a', ['apple', 'avocado']],
      ['b', ['berry', 'banana']],
      ['c', ['cherry']],
    ]);
    expect(byFirstLetter(words)).toBe(groups);
  });

  it('groups a new list afresh, even with the same items', () => {
    const first = ['apple'];
    const second = [...first, 'avocado'];
    expect(byFirstLetter(first).get('a')).toEqual(['apple']);
    expect(byFirstLetter(second).get('a')).toEqual(['apple', 'avocado']);
  });
});
