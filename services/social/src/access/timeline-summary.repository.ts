import { copyDeletionPendingSql } from '@timeliner/platform';
import type { DataSource } from 'typeorm';
import { creatorIsPrivateSql } from '../private-accounts/private-account-sql.js';

/**
 * True for a feed_timelines row the moderation desk took out: hidden, or its creator suspended now
 * or waiting for their account to be deleted (read-rules/moderation-filters.ts says the same; written here because moderation/ reads
 * reports/, which reads this folder).
 */
const moderatedOutSql = `(EXISTS (SELECT 1 FROM moderated_content mc WHERE mc.content_type = 'timeline' AND mc.content_id = feed_timelines.id AND mc.hidden)
  OR EXISTS (SELECT 1 FROM account_suspensions su WHERE su.user_id = feed_timelines.creator_id AND (su.until IS NULL OR su.until > now()))
  OR ${copyDeletionPendingSql('feed_timelines.creator_id')})`;

/** What lists show of a timeline, from the feed_timelines read model. */
export interface TimelineSummary {
  id: string;
  title: string;
  description: string;
  videoCount: number;
  duration: number;
  creatorId: string;
  creatorName: string;
  coverMediaId: string | null;
}

/** Whether a timeline is listed for everyone, as the read model knows it. */
export interface TimelineListing {
  visibility: string;
  status: string;
  /** The creator's account is private: only the timelines service says who sees it (its approved followers). */
  creatorPrivate: boolean;
  /** The moderators hid it or suspended its creator: only the timelines service says who sees it (its owner). */
  moderatedOut: boolean;
}

export type TimelineSummaryRow = TimelineSummary & TimelineListing;

/** The feed_timelines read model as the access checks of lists read it (see visible-timelines.ts). */
export class TimelineSummaryRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The summaries the read model has of the timelines, with their visibility and status; in no particular order. */
  async summaries(ids: string[]): Promise<TimelineSummaryRow[]> {
    return (await this.dataSource.query(
      `SELECT id, title, description, video_count AS "videoCount", duration, creator_id AS "creatorId", creator_name AS "creatorName",
              cover_media_id AS "coverMediaId", visibility, status, ${creatorIsPrivateSql('creator_id')} AS "creatorPrivate",
              ${moderatedOutSql} AS "moderatedOut"
         FROM feed_timelines WHERE id = ANY($1::uuid[])`,
      [ids],
    )) as TimelineSummaryRow[];
  }

  /** The timeline's visibility and status; null when the read model has not heard of it. */
  async listing(id: string): Promise<TimelineListing | null> {
    const [row] = (await this.dataSource.query(
      `SELECT visibility, status, ${creatorIsPrivateSql('creator_id')} AS "creatorPrivate", ${moderatedOutSql} AS "moderatedOut" FROM feed_timelines WHERE id = $1`,
      [id],
    )) as TimelineListing[];
    return row ?? null;
  }
}
