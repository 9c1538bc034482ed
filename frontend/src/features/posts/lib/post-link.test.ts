import { describe, expect, it } from '@jest/globals';
import { postLink } from './post-link';

describe('a post’s share link', () => {
  it('is the post’s own page, not its author’s profile', () => {
    expect(postLink('https://timeliner.example', { id: 'p-1' })).toBe('https://timeliner.example/post/p-1');
  });
});
