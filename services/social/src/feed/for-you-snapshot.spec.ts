import { describe, expect, it } from '@jest/globals';
import { forYouListingChanged } from '../feed-index/listing-changed.js';
import type { PostCards } from '../posts/post-card.js';
import type { FeedRepository, FeedSlot } from './feed.repository.js';
import { ForYouSnapshots } from './for-you-snapshot.js';

/** A ranking the test releases by hand, counting how many were asked for. */
function slowRanking() {
  const pending: Array<() => void> = [];
  let taken = 0;
  const feed = {
    forYou: () =>
      new Promise<FeedSlot[]>((resolve) => {
        taken += 1;
        pending.push(() => resolve([]));
      }),
    timelines: async () => [],
  } as unknown as FeedRepository;
  const posts = { byIds: async () => [] } as unknown as PostCards;
  return { feed, posts, taken: () => taken, release: () => pending.splice(0).forEach((resolve) => resolve()) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ForYouSnapshots', () => {
  it('takes one snapshot for many readers, and one more for every change that arrives meanwhile', async () => {
    let now = 0;
    const ranking = slowRanking();
    const snapshots = new ForYouSnapshots(ranking.feed, ranking.posts, { size: 10, maxAgeMs: 1_000, now: () => now });
    try {
      const first = Array.from({ length: 20 }, () => snapshots.get());
      await settle();
      expect(ranking.taken()).toBe(1);
      // Ten posts written while it is taken, each followed by readers: one more snapshot serves them all.
      const second: Array<Promise<unknown>> = [];
      for (let i = 0; i < 10; i += 1) {
        forYouListingChanged();
        second.push(snapshots.get(), snapshots.get());
      }
      ranking.release();
      await Promise.all(first);
      await settle();
      expect(ranking.taken()).toBe(2);
      ranking.release();
      const [a, b] = await Promise.all([second[0], second[19]]);
      expect(a).toBe(b);
      // Fresh: no more taking until it is a second old.
      await snapshots.get();
      expect(ranking.taken()).toBe(2);
      now += 1_001;
      const third = snapshots.get();
      await settle();
      expect(ranking.taken()).toBe(3);
      ranking.release();
      await third;
    } finally {
      snapshots.close();
    }
  });

  it('stops listening to changes once closed', async () => {
    const ranking = slowRanking();
    const snapshots = new ForYouSnapshots(ranking.feed, ranking.posts, { size: 10, maxAgeMs: 60_000 });
    const first = snapshots.get();
    await settle();
    ranking.release();
    await first;
    snapshots.close();
    forYouListingChanged();
    await snapshots.get();
    expect(ranking.taken()).toBe(1);
  });
});
