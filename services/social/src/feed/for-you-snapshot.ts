import { onForYouListingChanged } from '../feed-index/listing-changed.js';
import type { PostCards } from '../posts/post-card.js';
import type { FeedCardRow, FeedRepository } from './feed.repository.js';

/**
 * The head of the for-you order, shared by every caller of this process.
 *
 * Everyone's for-you feed starts the same way: the same ranking (as of a moment), then the
 * caller's own state. Ranking it per request costs a query that plans the whole union of posts,
 * timelines and key history; here it is done at most once a second (or when something new may
 * rank: a post written here, a timeline listed by an event applied here), and a first page costs
 * one small query for the caller's state of the few items it shows (FeedRepository.cardState).
 *
 * A snapshot is exactly the database's for-you order as of its `readAt` (the same query, with no
 * caller), so its cursor continues on the database path without a gap or a duplicate.
 */

const NO_CALLER = '00000000-0000-0000-0000-000000000000';

/** One ranked item with everything its card shows that does not depend on the caller. */
export type SnapshotCard = FeedCardRow;

export interface ForYouSnapshot {
  /** The read time the order is as of (cursor text). */
  readAt: string;
  /** When it was taken (ms, the process clock). */
  takenAt: number;
  cards: SnapshotCard[];
  /** The whole feed fits: there is nothing after the last card. */
  complete: boolean;
}

export interface ForYouSnapshotOptions {
  /** Items kept (the first pages of everyone's feed). */
  size: number;
  /** How old a snapshot may be before a read waits for a new one: how late another replica's new item may appear. */
  maxAgeMs: number;
  now?: () => number;
}

export const FOR_YOU_SNAPSHOT_DEFAULTS: ForYouSnapshotOptions = { size: 200, maxAgeMs: 1_000 };

/** Now as cursor text (microseconds, UTC). */
export const cursorNow = (): string => `${new Date().toISOString().slice(0, 23)}000Z`;

export class ForYouSnapshots {
  private current?: ForYouSnapshot & { generation: number };
  private taking?: { generation: number; snapshot: Promise<ForYouSnapshot> };
  private queued?: Promise<ForYouSnapshot>;
  private generation = 0;
  private readonly now: () => number;
  /** Stops listening to listing changes (feed-index/listing-changed.ts): each one makes the current snapshot stale. */
  private readonly stopListening: () => void;

  constructor(
    private readonly feed: FeedRepository,
    private readonly posts: PostCards,
    private readonly options: ForYouSnapshotOptions = FOR_YOU_SNAPSHOT_DEFAULTS,
  ) {
    this.now = options.now ?? Date.now;
    this.stopListening = onForYouListingChanged(() => {
      this.generation++;
    });
  }

  close(): void {
    this.stopListening();
  }

  /**
   * A snapshot no older than maxAgeMs and taken after the last listing change. One is taken at a
   * time: changes that arrive while one is being taken are all served by the single next one.
   */
  get(): Promise<ForYouSnapshot> {
    const current = this.current;
    if (current && current.generation === this.generation && this.now() - current.takenAt <= this.options.maxAgeMs) return Promise.resolve(current);
    const taking = this.taking;
    if (taking) {
      if (taking.generation === this.generation) return taking.snapshot;
      this.queued ??= taking.snapshot.then(
        () => this.retake(),
        () => this.retake(),
      );
      return this.queued;
    }
    return this.startTaking();
  }

  private retake(): Promise<ForYouSnapshot> {
    this.queued = undefined;
    return this.get();
  }

  private startTaking(): Promise<ForYouSnapshot> {
    const generation = this.generation;
    const snapshot = this.take().then((taken) => {
      if (!this.current || this.current.takenAt <= taken.takenAt) this.current = { ...taken, generation };
      return taken;
    });
    const taking = { generation, snapshot };
    this.taking = taking;
    const forget = () => {
      if (this.taking === taking) this.taking = undefined;
    };
    snapshot.then(forget, forget);
    return snapshot;
  }

  private async take(): Promise<ForYouSnapshot> {
    const takenAt = this.now();
    const readAt = cursorNow();
    const slots = await this.feed.forYou(NO_CALLER, { readAt }, this.options.size + 1);
    const complete = slots.length <= this.options.size;
    const kept = slots.slice(0, this.options.size);
    const [posts, timelines] = await Promise.all([
      this.posts.byIds(kept.filter((s) => s.type === 'post').map((s) => s.id), undefined),
      this.feed.timelines(kept.filter((s) => s.type === 'timeline').map((s) => s.id), NO_CALLER),
    ]);
    const postById = new Map(posts.map((p) => [p.id, p]));
    const timelineById = new Map(timelines.map((t) => [t.id, t]));
    const cards: SnapshotCard[] = [];
    for (const slot of kept) {
      const post = slot.type === 'post' ? postById.get(slot.id) : undefined;
      const timeline = slot.type === 'timeline' ? timelineById.get(slot.id) : undefined;
      // Deleted between the two reads: left out, as a page's hydration leaves it out.
      if (post || timeline) cards.push({ slot, post, timeline });
    }
    return { readAt, takenAt, cards, complete };
  }
}
