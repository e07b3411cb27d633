import { describe, expect, it } from 'vitest';
import { parseTagList } from './tag-list';

describe('parseTagList (bulk tag editor)', () => {
  it('trims, lowercases and forgives a trailing comma', () => {
    expect(parseTagList(' Web, db:main ,')).toEqual({ tags: ['web', 'db:main'], error: null });
  });

  it.each([
    ['', 'Please enter at least one tag'],
    [' , ', 'Tag cannot be empty'],
    ['a,,b', 'Tag cannot be empty'],
    ['x'.repeat(25), 'Tag must be 1-24 characters'],
    ['web app', 'Invalid characters (alphanumeric, -, _, :, . only)'],
    ['web,WEB', 'Duplicate tag'],
    ['compose:shop', 'Tags starting with compose: or swarm: are derived and cannot be edited'],
  ])('refuses %j with %j', (text, error) => {
    expect(parseTagList(text)).toEqual({ tags: null, error });
  });
});
