import { describe, expect, it } from 'vitest';
import { suggestTags } from './tag-suggestions.js';

describe('suggestTags', () => {
  it('keeps tags containing the trimmed, lowercased query, most used first, then by name', () => {
    const lists = [['prod', 'web'], ['prod', 'db'], ['staging', 'web'], ['prod']];
    expect(suggestTags(lists, '', 10)).toEqual(['prod', 'web', 'db', 'staging']);
    expect(suggestTags(lists, ' B ', 10)).toEqual(['web', 'db']);
    expect(suggestTags(lists, '', 2)).toEqual(['prod', 'web']);
    expect(suggestTags([], 'x', 5)).toEqual([]);
  });
});
