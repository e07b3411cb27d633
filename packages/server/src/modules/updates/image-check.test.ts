import { describe, expect, it } from 'vitest';
import { repositoryOf } from './image-check.js';

describe('repositoryOf', () => {
  it.each([
    ['nginx', 'nginx'],
    ['nginx:1.27', 'nginx'],
    ['127.0.0.1:5000/team/app:1.2', '127.0.0.1:5000/team/app'],
    ['127.0.0.1:5000/app', '127.0.0.1:5000/app'],
    ['ghcr.io/o/app@sha256:abc', 'ghcr.io/o/app'],
  ])('%s → %s', (ref, repo) => expect(repositoryOf(ref)).toBe(repo));
});
