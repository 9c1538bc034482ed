import { BadRequestException, NotFoundException, UnauthorizedException } from '@nestjs/common';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { type Caller, type EventWriter, type ObjectInfo, type ObjectStorage, type SignedInCaller, type TimelineAccess } from '@timeliner/platform';
import { MediaEvents } from '@timeliner/proto';
import { hidden, MEDIA_NOT_FOUND, requireEdit, requireView } from '../access/timeline-access.js';
import { isUuid } from '../ids.js';
import { protoMediaType } from '../uploads/upload-completion.js';
import { type MediaItemDto, toMediaItemDto, toVideoDto, type VideoDto } from './media.dto.js';
import { Media } from './media.entity.js';
import { hlsKey, mediaPrefix } from './media-keys.js';
import type { MediaUrlSigner } from './media-urls.js';

export const LINK_EXPIRED = 'Link expired';

/** Names the worker writes under `media/<id>/hls/`: playlists, MPEG-TS or fMP4 segments, init segments. */
export const HLS_FILE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\.(m3u8|ts|m4s|mp4)$/;
/** Rendition folders the worker writes: `144p` ... `2160p`. */
export const HLS_RENDITION = /^[1-9][0-9]{1,3}p$/;
const HLS_TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
  m4s: 'video/iso.segment',
  mp4: 'video/mp4',
};

/** The web-size rendition of an image, when the worker made one. */
export const webImageKey = (mediaId: string): string => `media/${mediaId}/web.jpg`;

export interface ServedObject {
  key: string;
  info: ObjectInfo;
  contentType: string;
  /** For Content-Disposition (originals, exports). */
  downloadName?: string;
  /** How Content-Disposition presents `downloadName`; default inline. */
  disposition?: 'inline' | 'attachment';
  /** Playlists change while renditions are added; everything else under a media id never does. */
  immutable: boolean;
  /** Served for a valid `access` token (no identity): the token, and the seconds it has left. */
  signed?: { token: string; secondsLeft: number };
}

/**
 * A timeline's media: lists, order, titles, deletion, and the objects (originals, HLS,
 * thumbnails, images) behind the media URLs. Every call asks the timelines service who the caller
 * is to the timeline (see access/timeline-access.ts for the policy).
 */
export class MediaService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly storage: ObjectStorage,
    private readonly access: TimelineAccess,
    private readonly events: EventWriter,
    private readonly logger: Logger,
    private readonly urls: MediaUrlSigner,
  ) {}

  /** A video as answered to a caller who may view it: its URLs signed (see media-urls.ts). */
  videoDto(m: Media): VideoDto {
    const expiry = this.urls.expiry();
    return toVideoDto(m, (url) => this.urls.sign(url, m.id, expiry));
  }

  mediaItemDto(m: Media): MediaItemDto {
    const expiry = this.urls.expiry();
    return toMediaItemDto(m, (url) => this.urls.sign(url, m.id, expiry));
  }

  private repo() {
    return this.dataSource.getRepository(Media);
  }

  private ordered(timelineId: string, type?: Media['mediaType']): Promise<Media[]> {
    return this.repo().find({
      where: { timelineId: timelineId.toLowerCase(), ...(type ? { mediaType: type } : {}) },
      order: { position: 'ASC', uploadedAt: 'ASC', id: 'ASC' },
      take: 1000,
    });
  }

  /** The timeline's videos, or (`withImages`) all its media in the video shape, in timeline order. */
  async listVideos(caller: Caller, timelineId: string, withImages = false): Promise<VideoDto[]> {
    await requireView(this.access, caller, timelineId);
    return (await this.ordered(timelineId, withImages ? undefined : 'video')).map((m) => this.videoDto(m));
  }

  async listMedia(caller: Caller, timelineId: string): Promise<MediaItemDto[]> {
    await requireView(this.access, caller, timelineId);
    return (await this.ordered(timelineId)).map((m) => this.mediaItemDto(m));
  }

  /**
   * A new manual order. `ids` names either every video (the images keep their places and the
   * videos fill the other places in the given order) or every video and image.
   */
  async reorder(caller: SignedInCaller, timelineId: string, ids: string[]): Promise<VideoDto[]> {
    await requireEdit(this.access, caller, timelineId);
    const all = await this.ordered(timelineId);
    const videos = all.filter((m) => m.mediaType === 'video');
    const wanted = ids.map((id) => id.toLowerCase());
    const namesEach = (list: Media[]) => {
      const known = new Set(list.map((m) => m.id));
      return wanted.length === known.size && new Set(wanted).size === wanted.length && wanted.every((id) => known.has(id));
    };
    const byId = new Map(all.map((m) => [m.id, m]));
    if (namesEach(all)) return this.applyOrder(caller, timelineId, wanted.map((id) => byId.get(id)!));
    if (!namesEach(videos)) {
      throw new BadRequestException("videoIds must list each of the timeline's videos exactly once");
    }
    const next = wanted.values();
    return this.applyOrder(caller, timelineId, all.map((m) => (m.mediaType === 'video' ? byId.get(next.next().value as string)! : m)));
  }

  /** Orders the videos and images by upload or recording time (upload time when a file has none), oldest first. */
  async orderByTimestamp(caller: SignedInCaller, timelineId: string, orderType: 'upload' | 'created'): Promise<VideoDto[]> {
    await requireEdit(this.access, caller, timelineId);
    const media = await this.ordered(timelineId);
    const uploaded = (v: Media) => (v.uploadedAt ?? v.createdAt).getTime();
    const recorded = (v: Media) => {
      const at = typeof v.metadata?.createdAt === 'string' ? Date.parse(v.metadata.createdAt) : Number.NaN;
      return Number.isNaN(at) ? uploaded(v) : at;
    };
    const key = orderType === 'created' ? recorded : uploaded;
    const sorted = [...media].sort((a, b) => key(a) - key(b) || uploaded(a) - uploaded(b) || (a.id < b.id ? -1 : 1));
    return this.applyOrder(caller, timelineId, sorted);
  }

  /** Numbers every media item of the timeline in this order; MediaReordered announces the videos' order. Answers the videos. */
  private async applyOrder(caller: SignedInCaller, timelineId: string, ordered: Media[]): Promise<VideoDto[]> {
    const timeline = timelineId.toLowerCase();
    const ids = ordered.map((m) => m.id);
    const videoIds = ordered.filter((m) => m.mediaType === 'video').map((m) => m.id);
    await this.dataSource.transaction(async (manager) => {
      if (ids.length > 0) {
        await manager.query(
          `UPDATE media m SET position = o.position - 1, updated_at = now()
             FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, position)
            WHERE m.id = o.id AND m.timeline_id = $1`,
          [timeline, ids],
        );
      }
      await this.events.add(manager, MediaEvents.MediaReordered, { timelineId: timeline, mediaIds: videoIds }, { actorUserId: caller.userId, requestId: caller.requestId });
    });
    this.events.committed();
    return (await this.ordered(timeline, 'video')).map((m) => this.videoDto(m));
  }

  async updateTitle(caller: SignedInCaller, mediaId: string, title: string): Promise<VideoDto> {
    const media = await this.editable(caller, mediaId);
    await this.repo().update({ id: media.id }, { title });
    return this.videoDto({ ...media, title } as Media);
  }

  async remove(caller: SignedInCaller, mediaId: string): Promise<void> {
    const media = await this.editable(caller, mediaId);
    const removed = await this.dataSource.transaction(async (manager) => {
      const rows: Array<{ id: string }> = await manager.query('DELETE FROM media WHERE id = $1 RETURNING id', [media.id]);
      if (rows.length === 0) return false;
      await this.events.add(manager, MediaEvents.MediaDeleted, {
        mediaId: media.id,
        timelineId: media.timelineId,
        mediaType: protoMediaType(media.mediaType),
        duration: media.mediaType === 'video' && media.processedAt ? media.duration : 0,
      }, { actorUserId: caller.userId, requestId: caller.requestId });
      return true;
    });
    if (!removed) throw new NotFoundException(MEDIA_NOT_FOUND);
    this.events.committed();
    await this.deleteObjects(media.id);
  }

  /** Everything stored for a media item; a failure is logged (the objects are unreachable anyway). */
  async deleteObjects(mediaId: string): Promise<void> {
    try {
      await this.storage.deletePrefix(mediaPrefix(mediaId));
    } catch (err) {
      this.logger.error({ err, mediaId }, 'could not delete the objects of deleted media');
    }
  }

  // --- objects -----------------------------------------------------------------------------------

  // Each object route takes the `access` query parameter: a valid token for the media opens it
  // without asking who the caller is; without one (or with an invalid one) the caller must be
  // allowed to view it, and a caller who is not is told the link expired when it sent a token.

  async original(caller: Caller, mediaId: string, access?: string): Promise<ServedObject> {
    const { media, signed } = await this.viewable(caller, mediaId, access);
    return this.served(media.filename, media.mimeType, { downloadName: downloadName(media), immutable: true, signed });
  }

  async hls(caller: Caller, mediaId: string, file: string, rendition?: string, access?: string): Promise<ServedObject> {
    if (!HLS_FILE.test(file) || (rendition !== undefined && !HLS_RENDITION.test(rendition))) throw new NotFoundException('No such rendition file');
    const { media, signed } = await this.viewable(caller, mediaId, access);
    if (media.mediaType !== 'video') throw new NotFoundException('No such rendition file');
    const ext = file.slice(file.lastIndexOf('.') + 1);
    return this.served(hlsKey(media.id, rendition ? `${rendition}/${file}` : file), HLS_TYPES[ext]!, { immutable: ext !== 'm3u8', missing: 'No such rendition file', signed });
  }

  async thumbnail(caller: Caller, mediaId: string, access?: string): Promise<ServedObject> {
    const { media, signed } = await this.viewable(caller, mediaId, access);
    if (!media.thumbnailKey || !media.thumbnailKey.startsWith(mediaPrefix(media.id))) throw new NotFoundException('No thumbnail yet');
    return this.served(media.thumbnailKey, 'image/jpeg', { immutable: true, missing: 'No thumbnail yet', signed });
  }

  /** An image: its web-size rendition when the worker made one (unless the original is asked for), else the original. */
  async image(caller: Caller, mediaId: string, variant: 'web' | 'original', access?: string): Promise<ServedObject> {
    const { media, signed } = await this.viewable(caller, mediaId, access);
    if (media.mediaType !== 'image') throw new NotFoundException('Not an image');
    if (variant === 'web') {
      const web = await this.storage.stat(webImageKey(media.id));
      if (web) return { key: web.key, info: web, contentType: 'image/jpeg', immutable: true, ...(signed ? { signed } : {}) };
    }
    return this.served(media.filename, media.mimeType, { downloadName: downloadName(media), immutable: true, signed });
  }

  private async served(
    key: string,
    contentType: string,
    options: { downloadName?: string; immutable: boolean; missing?: string; signed?: ServedObject['signed'] },
  ): Promise<ServedObject> {
    const info = await this.storage.stat(key);
    if (!info) throw new NotFoundException(options.missing ?? 'The file is not available');
    return {
      key, info, contentType, immutable: options.immutable,
      ...(options.downloadName ? { downloadName: options.downloadName } : {}),
      ...(options.signed ? { signed: options.signed } : {}),
    };
  }

  stream(key: string, range?: { start: number; end: number }) {
    return this.storage.get(key, range);
  }

  private async find(caller: Caller, mediaId: string): Promise<Media> {
    if (!isUuid(mediaId)) throw hidden(caller, MEDIA_NOT_FOUND);
    const media = await this.repo().findOneBy({ id: mediaId.toLowerCase() });
    if (!media) throw hidden(caller, MEDIA_NOT_FOUND);
    return media;
  }

  private async viewable(caller: Caller, mediaId: string, access?: string): Promise<{ media: Media; signed?: ServedObject['signed'] }> {
    const secondsLeft = access !== undefined && isUuid(mediaId) ? this.urls.verify(mediaId, access) : null;
    if (access !== undefined && secondsLeft !== null) {
      const media = await this.repo().findOneBy({ id: mediaId.toLowerCase() });
      if (!media) throw new NotFoundException(MEDIA_NOT_FOUND);
      return { media, signed: { token: access, secondsLeft } };
    }
    try {
      const media = await this.find(caller, mediaId);
      await requireView(this.access, caller, media.timelineId, MEDIA_NOT_FOUND);
      return { media };
    } catch (err) {
      if (access !== undefined && (err instanceof UnauthorizedException || err instanceof NotFoundException)) throw new UnauthorizedException(LINK_EXPIRED);
      throw err;
    }
  }

  private async editable(caller: SignedInCaller, mediaId: string): Promise<Media> {
    const media = await this.find(caller, mediaId);
    await requireEdit(this.access, caller, media.timelineId, { notFound: MEDIA_NOT_FOUND });
    return media;
  }
}

/** The title, with the original's extension when the title lacks one. */
function downloadName(media: Media): string {
  const dot = media.originalName.lastIndexOf('.');
  const ext = dot > 0 ? media.originalName.slice(dot) : '';
  return ext && !media.title.toLowerCase().endsWith(ext.toLowerCase()) ? `${media.title}${ext}` : media.title;
}
