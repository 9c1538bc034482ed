import { type EventBus, isUuid, serveRpc, type Subscription } from '@timeliner/platform';
import { MediaRpc, MediaStatus } from '@timeliner/proto';
import type { DataSource } from 'typeorm';
import { protoMediaType } from '../uploads/upload-completion.js';
import type { MediaStatus as Status, MediaType } from './media.entity.js';

const MAX_PAGE = 1000;

interface Raw {
  id: string;
  timelineId: string;
  uploaderId: string;
  mediaType: MediaType;
  status: Status;
  originalName: string;
  duration: number;
  position: number;
  altText: string | null;
  altTextVersion: string;
  sensitive: boolean;
}

const SELECT = `SELECT id, timeline_id AS "timelineId", uploader_id AS "uploaderId", media_type AS "mediaType", status,
  original_name AS "originalName", duration, position, alt_text AS "altText", alt_text_version::text AS "altTextVersion", sensitive FROM media`;

/** `completed` is what VideoProcessed/ImageProcessed told; an item still uploading is processing for its copies. */
const statusOf = (status: Status): MediaStatus => (status === 'completed' ? MediaStatus.READY : status === 'error' ? MediaStatus.FAILED : MediaStatus.PROCESSING);

/**
 * Answers a read model's rebuild (MediaRpc.Replay: social's videos, the timelines' cover
 * descriptions): the videos and images as they stand, with the version their MediaAltTextChanged
 * events carry, one page in id order at a time, or those of a list of ids that still exist. Read
 * only; nothing goes through the outbox. Queue group `media`.
 */
export function serveMediaReplay(bus: EventBus, dataSource: DataSource): Promise<Subscription> {
  return serveRpc(bus, MediaRpc.Replay, 'media', async ({ afterId, limit, mediaIds }) => {
    const size = Math.min(Math.max(1, limit || 200), MAX_PAGE);
    if (afterId && !isUuid(afterId)) throw new Error('after_id is not a media id');
    const rows = (
      mediaIds.length > 0
        ? await dataSource.query(`${SELECT} WHERE id = ANY($1::uuid[]) ORDER BY id`, [mediaIds.filter(isUuid).map((id) => id.toLowerCase()).slice(0, MAX_PAGE)])
        : afterId
          ? await dataSource.query(`${SELECT} WHERE id > $1 ORDER BY id LIMIT $2`, [afterId.toLowerCase(), size])
          : await dataSource.query(`${SELECT} ORDER BY id LIMIT $1`, [size])
    ) as Raw[];
    const first = !afterId && mediaIds.length === 0;
    const [{ n }] = first ? ((await dataSource.query('SELECT count(*)::text AS n FROM media')) as [{ n: string }]) : [{ n: '0' }];
    return {
      media: rows.map((row) => ({
        mediaId: row.id,
        timelineId: row.timelineId,
        uploaderId: row.uploaderId,
        mediaType: protoMediaType(row.mediaType),
        status: statusOf(row.status),
        originalName: row.originalName,
        duration: Number(row.duration) || 0,
        position: row.position,
        altText: row.altText ?? '',
        altTextVersion: BigInt(row.altTextVersion),
        sensitive: row.sensitive,
      })),
      total: BigInt(n),
    };
  });
}
