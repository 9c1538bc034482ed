import { keysetPage, keysetSql, type KeyedRecord, type PersonalDataPage } from '@timeliner/platform';
import type { DataSource } from 'typeorm';

/** What one section selects, as `k` (text sort key) and `record` (json), with `$1` the person. */
const SECTIONS = {
  /** The timelines the person created, with the order of their videos. */
  timelines: `SELECT id::text AS k, json_build_object(
      'id', id, 'title', title, 'description', description, 'visibility', visibility, 'status', status, 'categoryTag', category_tag,
      'duration', duration, 'videoCount', video_count, 'imageCount', image_count, 'views', views, 'likesCount', likes_count,
      'commentsCount', comments_count, 'videoOrder', video_order, 'createdAt', created_at, 'updatedAt', updated_at) AS record
    FROM timelines WHERE creator_id = $1`,
  /** Other people's timelines the person works on. */
  collaborations: `SELECT c.timeline_id::text AS k, json_build_object('timelineId', c.timeline_id, 'title', t.title, 'role', c.role, 'status', c.status, 'joinedAt', c.joined_at) AS record
    FROM collaborators c JOIN timelines t ON t.id = c.timeline_id WHERE c.user_id = $1`,
} as const;

export type TimelinesSection = keyof typeof SECTIONS;
export const TIMELINES_SECTIONS = Object.keys(SECTIONS) as TimelinesSection[];

/** A person's own timelines and collaborations, for their data archive. */
export class PersonalDataRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(section: TimelinesSection, userId: string, cursor: string, limit: number): Promise<PersonalDataPage> {
    const rows = (await this.dataSource.query(keysetSql(SECTIONS[section]), [userId, cursor, limit])) as KeyedRecord[];
    return keysetPage(rows, limit);
  }
}
