import { NotFoundException } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { MediaKind } from './video.entity.js';
import { isUuid, requireVisible, type TimelineAccess, type TimelineAccessAnswer, type TimelineAccessOptions } from '@timeliner/platform';
import { staffSql } from '../read-rules/moderation-filters.js';

export const VIDEO_NOT_FOUND = 'Video not found';

/** What this service knows of a video (the media service owns it): its timeline and counters. */
export interface VideoRow {
  id: string;
  timelineId: string;
  likesCount: number;
  commentsCount: number;
  /** The moderators hid this video (the desk's decision on it alone; its timeline's are the timelines service's). */
  hiddenByModerators: boolean;
}

interface RawVideo {
  id: string;
  timeline_id: string;
  likes_count: number;
  comments_count: number;
  hidden_by_moderators: boolean;
}

const toVideo = (raw: RawVideo): VideoRow => ({
  id: raw.id, timelineId: raw.timeline_id, likesCount: raw.likes_count, commentsCount: raw.comments_count, hiddenByModerators: raw.hidden_by_moderators,
});

const HIDDEN_BY_MODERATORS = `EXISTS (SELECT 1 FROM moderated_content mc WHERE mc.content_type = 'video' AND mc.content_id = videos.id AND mc.hidden)`;

/** The videos read model (filled from the media service's events, see video-events.ts). */
export class VideoRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * A video that exists and is not deleted (an image is none: it has no likes or comments);
   * `lock` holds its row to the end of the transaction.
   */
  async find(videoId: string, manager: EntityManager | DataSource = this.dataSource, lock = false): Promise<VideoRow | null> {
    const rows: RawVideo[] = await manager.query(
      `SELECT id, timeline_id, likes_count, comments_count, ${HIDDEN_BY_MODERATORS} AS hidden_by_moderators FROM videos WHERE id = $1 AND NOT deleted AND media_type = 'video'${lock ? ' FOR UPDATE' : ''}`,
      [videoId],
    );
    return rows[0] ? toVideo(rows[0]) : null;
  }

  /**
   * The video if the caller may see its timeline; 404 otherwise, whether the video is unknown,
   * deleted, or on a timeline the caller may not see (the timelines service decides). A video the
   * moderators hid is there only for those who edit its timeline (its owner and editors, who see
   * it marked, as the media service shows it) and, for a read in context (`inContext`: its
   * comments), for staff; for everyone else it is not there, as if deleted.
   */
  async requireVisible(access: TimelineAccess, rawId: string, userId: string | undefined, options: TimelineAccessOptions = {}): Promise<{ video: VideoRow; access: TimelineAccessAnswer }> {
    const hidden = () => new NotFoundException(VIDEO_NOT_FOUND);
    if (!isUuid(rawId)) throw hidden();
    const video = await this.find(rawId.toLowerCase());
    if (!video) throw hidden();
    const answer = await requireVisible(access, video.timelineId, userId, hidden, options);
    if (video.hiddenByModerators && !answer.canEdit && !(options.inContext && userId !== undefined && (await this.isStaff(userId)))) throw hidden();
    return { video, access: answer };
  }

  /** Staff (moderator or admin), read at each request like the desk's own check: asked only for a video the moderators hid. */
  private async isStaff(userId: string): Promise<boolean> {
    if (!isUuid(userId)) return false;
    const [row] = (await this.dataSource.query(`SELECT ${staffSql('$1::uuid')} AS staff`, [userId.toLowerCase()])) as Array<{ staff: boolean }>;
    return row?.staff ?? false;
  }

  /** A video or image the media service announced (UploadCompleted); one already known, or deleted, stays as it is. */
  async recordUpload(manager: EntityManager, videoId: string, timelineId: string, mediaType: MediaKind): Promise<void> {
    await manager.query('INSERT INTO videos (id, timeline_id, media_type) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [videoId, timelineId, mediaType]);
  }

  /** A deleted video or image (MediaDeleted): a tombstone, so a later upload announcement does not bring it back; a video's likes and comments go. */
  async forget(manager: EntityManager, videoId: string, timelineId: string, mediaType: MediaKind): Promise<void> {
    await manager.query(
      `INSERT INTO videos (id, timeline_id, media_type, deleted) VALUES ($1, $2, $3, true)
       ON CONFLICT (id) DO UPDATE SET deleted = true, likes_count = 0, comments_count = 0`,
      [videoId, timelineId, mediaType],
    );
    await this.forgetSocial(manager, [videoId]);
  }

  /** A deleted timeline takes its videos with it (the media service may not announce each one). */
  async forgetTimeline(manager: EntityManager, timelineId: string): Promise<void> {
    const gone = (await manager.query(
      `WITH gone AS (UPDATE videos SET deleted = true, likes_count = 0, comments_count = 0 WHERE timeline_id = $1 AND NOT deleted RETURNING id)
       SELECT id FROM gone`,
      [timelineId],
    )) as Array<{ id: string }>;
    await this.forgetSocial(manager, gone.map((v) => v.id));
  }

  /**
   * Forgets what people said about and liked in videos that are gone. Called with the videos' rows
   * updated first (which locks them), so it waits for any toggle or comment in flight and none
   * slips in afterwards: writers lock the video row before touching its likes and comments.
   */
  private async forgetSocial(manager: EntityManager, videoIds: string[]): Promise<void> {
    if (videoIds.length === 0) return;
    await manager.query('DELETE FROM video_likes WHERE video_id = ANY($1::uuid[])', [videoIds]);
    await manager.query('DELETE FROM video_comments WHERE video_id = ANY($1::uuid[])', [videoIds]);
  }
}
