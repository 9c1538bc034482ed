import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A timeline as search knows it, kept from TimelinesEvents.TimelineSnapshot: the snapshot with the
 * highest revision wins, so a redelivered or late one changes nothing.
 *
 * Only a listed timeline (public and published) keeps its words: for any other the row holds its
 * id, creator and revision and nothing a query could match, so a private, unlisted or draft
 * timeline cannot be found however it is searched for. `document` is built from the row by a
 * trigger (see the migration): title and hashtags weigh most, then the creator, then the
 * description.
 */
@Entity({ name: 'timelines' })
// Made by the migration: GIN on the document and on hashtags, partial to listed rows.
@Index('timelines_document_idx', { synchronize: false })
@Index('timelines_hashtags_idx', { synchronize: false })
@Index('timelines_popularity_idx', { synchronize: false })
@Index('timelines_creator_idx', ['creatorId'])
export class SearchTimeline {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  creatorId: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  creatorName: string;

  /** The creator's username from the auth service's events; empty until search has heard of them. */
  @Column({ type: 'varchar', length: 30, default: '' })
  creatorUsername: string;

  @Column({ type: 'varchar', length: 200, default: '' })
  title: string;

  @Column({ type: 'varchar', length: 5000, default: '' })
  description: string;

  /** `#tags` of the title and description: lower-case, without '#', in order of first use. */
  @Column({ type: 'varchar', length: 50, array: true, default: '{}' })
  hashtags: string[];

  /** Public and published: the only timelines search ever shows. */
  @Column({ type: 'boolean', default: false })
  listed: boolean;

  @Column({ type: 'integer', default: 0 })
  videoCount: number;

  /** Seconds. */
  @Column({ type: 'integer', default: 0 })
  duration: number;

  @Column({ type: 'bigint', default: 0 })
  views: string;

  @Column({ type: 'integer', default: 0 })
  likesCount: number;

  @Column({ type: 'integer', default: 0 })
  commentsCount: number;

  @Column({ type: 'double precision', default: 0 })
  activityScore: number;

  /** ln(1 + engagement): the part of a result's rank that is not about the words. */
  @Column({ type: 'double precision', default: 0 })
  popularity: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastActivityAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  @Column({ type: 'uuid', nullable: true })
  coverMediaId: string | null;

  /** The cover video's short description (the snapshot's cover_alt_text), for the result card's cover; null when it has none or the timeline is not listed. */
  @Column({ type: 'varchar', length: 1500, nullable: true })
  coverAltText: string | null;

  /** Marked sensitive (the snapshot's): its result card shows a blurred cover with Show unless the viewer always shows sensitive media. */
  @Column({ type: 'boolean', default: false })
  sensitive: boolean;

  @Column({ type: 'bigint', default: 0 })
  revision: string;

  /** Built by the timelines_document trigger; null unless listed. */
  @Column({ type: 'tsvector', nullable: true, select: false })
  document: string | null;
}

/** Timelines deleted: a snapshot that arrives after the deletion must not bring one back. */
@Entity({ name: 'deleted_timelines' })
export class DeletedTimeline {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  deletedAt: Date;
}

/**
 * Engagement a listed timeline gained per day (views + 2 × likes + 3 × comments, the growth
 * between snapshots): what "popular lately" is ranked on. Days older than a week are pruned.
 */
@Entity({ name: 'timeline_engagement' })
@Index('timeline_engagement_day_idx', ['day'])
export class TimelineEngagement {
  @PrimaryColumn('uuid')
  timelineId: string;

  @PrimaryColumn('date')
  day: string;

  @Column({ type: 'double precision', default: 0 })
  engagement: number;
}

/**
 * Words of listed timelines, for typo tolerance: a query word that matches none is widened to the
 * known words most like it (trigram similarity). Only ever grows; a stale word widens a query to
 * a term that matches nothing.
 */
@Entity({ name: 'search_words' })
// Trigram and prefix indexes, made by the migration.
@Index('search_words_trgm_idx', { synchronize: false })
@Index('search_words_prefix_idx', { synchronize: false })
export class SearchWord {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  word: string;
}

/**
 * A known word of up to 8 letters with one letter taken out (`pos`, from 1): the known words one
 * edit away from a typed word are found through these (see `search.words_one_edit_from`).
 */
@Entity({ name: 'search_word_edits' })
export class SearchWordEdit {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'PK_search_word_edits' })
  variant: string;

  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'PK_search_word_edits' })
  word: string;

  @PrimaryColumn({ type: 'smallint', primaryKeyConstraintName: 'PK_search_word_edits' })
  pos: number;
}
