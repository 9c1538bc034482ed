import { describe, expect, it } from '@jest/globals';
import { COMMENTS_OFF, containsWord, FOLLOWERS_ONLY, mustHold, normalizeWords, OPEN_COMMENTS, refusalOf } from './comment-rules.js';

describe('comment rules', () => {
  const stranger = { moderator: false, follower: false, registeredAt: null };
  it('refuses by who may comment, never a moderator', () => {
    expect(refusalOf(OPEN_COMMENTS, stranger)).toBeNull();
    expect(refusalOf({ ...OPEN_COMMENTS, whoMayComment: 'nobody' }, stranger)).toBe(COMMENTS_OFF);
    expect(refusalOf({ ...OPEN_COMMENTS, whoMayComment: 'nobody' }, { moderator: true, follower: false })).toBeNull();
    expect(refusalOf({ ...OPEN_COMMENTS, whoMayComment: 'followers' }, stranger)).toBe(FOLLOWERS_ONLY);
    expect(refusalOf({ ...OPEN_COMMENTS, whoMayComment: 'followers' }, { moderator: false, follower: true })).toBeNull();
  });

  it('matches whole words only, in any case', () => {
    expect(containsWord('You are a CLOWN.', 'clown')).toBe(true);
    expect(containsWord('clowning around', 'clown')).toBe(false);
    expect(containsWord('Straße ist gut', 'straße')).toBe(true);
    expect(containsWord('a :( face', ':(')).toBe(true);
    expect(containsWord('nothing here', '')).toBe(false);
  });

  it('holds all, by word, or by account age; never a moderator', () => {
    const now = new Date('2026-06-10T00:00:00Z');
    expect(mustHold(OPEN_COMMENTS, stranger, 'hi', now)).toBe(false);
    expect(mustHold({ ...OPEN_COMMENTS, holdAll: true }, stranger, 'hi', now)).toBe(true);
    expect(mustHold({ ...OPEN_COMMENTS, holdAll: true }, { moderator: true, registeredAt: null }, 'hi', now)).toBe(false);
    expect(mustHold({ ...OPEN_COMMENTS, heldWords: ['spoiler'] }, stranger, 'Big SPOILER ahead', now)).toBe(true);
    expect(mustHold({ ...OPEN_COMMENTS, heldWords: ['spoiler'] }, stranger, 'spoilers', now)).toBe(false);
    const week = { ...OPEN_COMMENTS, holdNewAccountsDays: 7 };
    expect(mustHold(week, { moderator: false, registeredAt: new Date('2026-06-05T00:00:00Z') }, 'hi', now)).toBe(true);
    expect(mustHold(week, { moderator: false, registeredAt: new Date('2026-06-01T00:00:00Z') }, 'hi', now)).toBe(false);
    expect(mustHold(week, { moderator: false, registeredAt: null }, 'hi', now)).toBe(false);
  });

  it('normalizes word lists', () => {
    expect(normalizeWords([' Spoiler ', 'spoiler', '', 'Ugly'])).toEqual(['spoiler', 'ugly']);
  });
});
