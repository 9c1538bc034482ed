import { NotFoundException } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { requireVisible, type TimelineAccess, type TimelineAccessAnswer } from '@timeliner/platform';
import { isUuid } from '../ids.js';

export const VIDEO_NOT_FOUND = 'Video not found';

/** What this service knows of a video (the media service owns it): its timeline and counters. */
export interface VideoRow {
  id: string;
  timelineId: string;
  likesCount: number;
  commentsCount: number;
}

interface RawVideo {
  id: string;
  timeline_id: string;
  likes_count: number;
  comments_count: number;
}

const toVideo = (raw: RawVideo): VideoRow => ({ id: raw.id, timelineId: raw.timeline_id, likesCount: raw.likes_count, commentsCount: raw.comments_count });

/** The videos read model (filled from the media service's events, see video-events.ts). */
export class VideoRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A video that exists and is not deleted; `lock` holds its row to the end of the transaction. */
  async find(videoId: string, manager: EntityManager | DataSource = this.dataSource, lock = false): Promise<VideoRow | null> {
    const rows: RawVideo[] = await manager.query(
      `SELECT id, timeline_id, likes_count, comments_count FROM videos WHERE id = $1 AND NOT deleted${lock ? ' FOR UPDATE' : ''}`,
      [videoId],
    );
    return rows[0] ? toVideo(rows[0]) : null;
  }

  /**
   * The video if the caller may see its timeline; 404 otherwise, whether the video is unknown,
   * deleted, or on a timeline the caller may not see (the timelines service decides).
   */
  async requireVisible(access: TimelineAccess, rawId: string, userId: string | undefined): Promise<{ video: VideoRow; access: TimelineAccessAnswer }> {
    const hidden = () => new NotFoundException(VIDEO_NOT_FOUND);
    if (!isUuid(rawId)) throw hidden();
    const video = await this.find(rawId.toLowerCase());
    if (!video) throw hidden();
    return { video, access: await requireVisible(access, video.timelineId, userId, hidden) };
  }
}
