import { keysetPage, keysetSql, type KeyedRecord, type PersonalDataPage } from '@timeliner/platform';
import type { DataSource } from 'typeorm';

/** What one section selects, as `k` (text sort key) and `record` (json), with `$1` the person. */
const SECTIONS = {
  posts: `SELECT id::text AS k, json_build_object(
      'id', id, 'content', content, 'hashtags', hashtags, 'mentions', mentions, 'likesCount', likes_count, 'commentsCount', comments_count,
      'bookmarksCount', bookmarks_count, 'createdAt', created_at, 'updatedAt', updated_at) AS record
    FROM posts WHERE user_id = $1`,
  comments: `SELECT id::text AS k, json_build_object('id', id, 'on', 'post', 'postId', post_id, 'content', content, 'createdAt', created_at) AS record
      FROM post_comments WHERE user_id = $1
    UNION ALL SELECT id::text, json_build_object('id', id, 'on', 'timeline', 'timelineId', timeline_id, 'content', content, 'atSecond', timestamp, 'createdAt', created_at)
      FROM timeline_comments WHERE user_id = $1
    UNION ALL SELECT id::text, json_build_object('id', id, 'on', 'video', 'videoId', video_id, 'timelineId', timeline_id, 'replyTo', parent_id, 'content', content, 'createdAt', created_at)
      FROM video_comments WHERE user_id = $1`,
  likes: `SELECT 'post:' || post_id AS k, json_build_object('on', 'post', 'postId', post_id, 'createdAt', created_at) AS record FROM post_likes WHERE user_id = $1
    UNION ALL SELECT 'timeline:' || timeline_id, json_build_object('on', 'timeline', 'timelineId', timeline_id, 'createdAt', created_at) FROM timeline_likes WHERE user_id = $1
    UNION ALL SELECT 'video:' || video_id, json_build_object('on', 'video', 'videoId', video_id, 'createdAt', created_at) FROM video_likes WHERE user_id = $1`,
  bookmarks: `SELECT 'post:' || post_id AS k, json_build_object('on', 'post', 'postId', post_id, 'createdAt', created_at) AS record FROM post_bookmarks WHERE user_id = $1
    UNION ALL SELECT 'timeline:' || timeline_id, json_build_object('on', 'timeline', 'timelineId', timeline_id, 'createdAt', created_at) FROM timeline_bookmarks WHERE user_id = $1`,
  collections: `SELECT c.id::text AS k, json_build_object(
      'id', c.id, 'name', c.name, 'description', c.description, 'isPublic', c.is_public, 'createdAt', c.created_at, 'updatedAt', c.updated_at,
      'timelines', (SELECT coalesce(json_agg(json_build_object('timelineId', ct.timeline_id, 'position', ct.position, 'addedAt', ct.added_at) ORDER BY ct.position), '[]'::json)
                      FROM collection_timelines ct WHERE ct.collection_id = c.id)) AS record
    FROM collections c WHERE c.user_id = $1`,
  following: `SELECT f.following_id::text AS k, json_build_object('userId', f.following_id, 'username', u.username, 'displayName', u.display_name, 'since', f.created_at) AS record
    FROM follows f LEFT JOIN users u ON u.id = f.following_id WHERE f.follower_id = $1`,
  followers: `SELECT f.follower_id::text AS k, json_build_object('userId', f.follower_id, 'username', u.username, 'displayName', u.display_name, 'since', f.created_at) AS record
    FROM follows f LEFT JOIN users u ON u.id = f.follower_id WHERE f.following_id = $1`,
} as const;

export type SocialSection = keyof typeof SECTIONS;
export const SOCIAL_SECTIONS = Object.keys(SECTIONS) as SocialSection[];

/** A person's own posts, comments, likes, bookmarks, collections and follows, for their data archive. */
export class PersonalDataRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(section: SocialSection, userId: string, cursor: string, limit: number): Promise<PersonalDataPage> {
    const rows = (await this.dataSource.query(keysetSql(SECTIONS[section]), [userId, cursor, limit])) as KeyedRecord[];
    return keysetPage(rows, limit);
  }
}
