import { BadRequestException, NotFoundException, UnauthorizedException } from '@nestjs/common';
import type { Logger } from 'pino';
import { type Caller, type EventWriter, isUuid, MEDIA_ACCESS_RECHECK_SECONDS, type ObjectInfo, type ObjectStorage, type SignedInCaller, type StaffRoles, type TimelineAccess, type TimelineAccessAnswer, type Transactions } from '@timeliner/platform';
import { MediaEvents } from '@timeliner/proto';
import { hidden, MEDIA_NOT_FOUND, requireEdit, requireView } from '../access/timeline-access.js';
import { protoMediaType } from '../uploads/upload-completion.js';
import { type MediaItemDto, toMediaItemDto, toVideoDto, type VideoDto } from './media.dto.js';
import type { Media } from './media.entity.js';
import type { MediaRepository } from './media.repository.js';
import { hlsKey, mediaPrefix, processedKeys } from '../storage/object-keys.js';
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
    private readonly media: MediaRepository,
    private readonly transactions: Transactions,
    private readonly storage: ObjectStorage,
    private readonly access: TimelineAccess,
    private readonly events: EventWriter,
    private readonly logger: Logger,
    private readonly urls: MediaUrlSigner,
    /** Who is staff (the social service): asked only when a signed-in caller who may not edit meets hidden media. */
    private readonly staff?: StaffRoles,
  ) {}

  /**
   * Who may still see a timeline, as last asked (timeline:viewer → allowed, when): a signed link
   * naming its viewer is served on this answer for MEDIA_ACCESS_RECHECK_SECONDS at most.
   */
  private readonly confirmed = new Map<string, { allowed: boolean; at: number }>();

  /**
   * A video as answered to a caller who may view it: its URLs signed (see media-urls.ts), naming
   * the viewer (`''` signed out) so the links stop once they lose access.
   */
  videoDto(m: Media, viewer?: string): VideoDto {
    const expiry = this.urls.expiry();
    return toVideoDto(m, (url) => this.urls.sign(url, m.id, expiry, viewer));
  }

  mediaItemDto(m: Media, viewer?: string): MediaItemDto {
    const expiry = this.urls.expiry();
    return toMediaItemDto(m, (url) => this.urls.sign(url, m.id, expiry, viewer));
  }

  private ordered(timelineId: string, type?: Media['mediaType']): Promise<Media[]> {
    return this.media.ordered(timelineId.toLowerCase(), type);
  }

  /** The timeline's videos, or (`withImages`) all its media in the video shape, in timeline order. */
  async listVideos(caller: Caller, timelineId: string, withImages = false): Promise<VideoDto[]> {
    const answer = await requireView(this.access, caller, timelineId, undefined, { inContext: true });
    return (await this.shownTo(caller, answer, await this.ordered(timelineId, withImages ? undefined : 'video'))).map((m) => this.videoDto(m, caller.userId ?? ''));
  }

  async listMedia(caller: Caller, timelineId: string): Promise<MediaItemDto[]> {
    const answer = await requireView(this.access, caller, timelineId, undefined, { inContext: true });
    return (await this.shownTo(caller, answer, await this.ordered(timelineId))).map((m) => this.mediaItemDto(m, caller.userId ?? ''));
  }

  /**
   * What moderators hid is gone for everyone but the timeline's owner and editors, and staff (who
   * see it marked, read-only). The social service is asked only when there is hidden media and a
   * signed-in caller who may not edit.
   */
  private async shownTo(caller: Caller, answer: TimelineAccessAnswer, media: Media[]): Promise<Media[]> {
    if (answer.canEdit || !media.some((m) => m.moderatedHidden)) return media;
    if (await this.seesHidden(caller.userId, answer)) return media;
    return media.filter((m) => !m.moderatedHidden);
  }

  /**
   * Whether a caller who may see the timeline but not edit it sees its hidden media (marked): staff
   * only. Staff the timelines service let see a timeline the moderators took out are known to be
   * staff already; otherwise the social service is asked, and no answer means no.
   */
  private async seesHidden(userId: string | undefined, answer: TimelineAccessAnswer): Promise<boolean> {
    if (answer.canEdit) return true;
    if (!userId) return false;
    if (answer.removedByModerators) return true;
    return this.staff ? this.staff.isStaff(userId) : false;
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
    await this.transactions.run(async (manager) => {
      await this.media.setPositions(manager, timeline, ids);
      await this.events.add(manager, MediaEvents.MediaReordered, { timelineId: timeline, mediaIds: videoIds }, { actorUserId: caller.userId, requestId: caller.requestId });
    });
    return (await this.ordered(timeline, 'video')).map((m) => this.videoDto(m));
  }

  async updateTitle(caller: SignedInCaller, mediaId: string, title: string): Promise<VideoDto> {
    const media = await this.editable(caller, mediaId);
    await this.media.setTitle(media.id, title);
    return this.videoDto({ ...media, title } as Media);
  }

  /** Its owner's and editors' own mark; the moderators' mark stays whatever they set. */
  async updateSensitive(caller: SignedInCaller, mediaId: string, sensitive: boolean): Promise<VideoDto> {
    const media = await this.editable(caller, mediaId);
    await this.media.setSensitive(media.id, sensitive);
    return this.videoDto({ ...media, sensitive } as Media, caller.userId);
  }

  async remove(caller: SignedInCaller, mediaId: string): Promise<void> {
    const media = await this.editable(caller, mediaId);
    const removed = await this.transactions.run(async (manager) => {
      if (!(await this.media.delete(manager, media.id))) return false;
      await this.events.add(manager, MediaEvents.MediaDeleted, {
        mediaId: media.id,
        timelineId: media.timelineId,
        mediaType: protoMediaType(media.mediaType),
        duration: media.mediaType === 'video' && media.processedAt ? media.duration : 0,
      }, { actorUserId: caller.userId, requestId: caller.requestId });
      return true;
    });
    if (!removed) throw new NotFoundException(MEDIA_NOT_FOUND);
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
      const web = await this.storage.stat(processedKeys.webImage(media.id));
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
    const media = await this.media.find(mediaId.toLowerCase());
    if (!media) throw hidden(caller, MEDIA_NOT_FOUND);
    return media;
  }

  private async viewable(caller: Caller, mediaId: string, access?: string): Promise<{ media: Media; signed?: ServedObject['signed'] }> {
    const verified = access !== undefined && isUuid(mediaId) ? this.urls.verifyFor(mediaId, access) : null;
    if (access !== undefined && verified !== null) {
      const media = await this.media.find(mediaId.toLowerCase());
      if (!media) throw new NotFoundException(MEDIA_NOT_FOUND);
      if (verified.viewer === undefined || !media.timelineId) return { media, signed: { token: access, secondsLeft: verified.secondsLeft } };
      // The link names its viewer: served while they may still see the timeline (asked again every
      // MEDIA_ACCESS_RECHECK_SECONDS), and cached no longer than that.
      if (!(await this.stillViewable(media.timelineId, verified.viewer))) throw new UnauthorizedException(LINK_EXPIRED);
      if (media.moderatedHidden && !(await this.seesHidden(verified.viewer || undefined, await this.access.check(media.timelineId, verified.viewer || undefined, { inContext: true })))) throw new UnauthorizedException(LINK_EXPIRED);
      return { media, signed: { token: access, secondsLeft: Math.min(verified.secondsLeft, MEDIA_ACCESS_RECHECK_SECONDS) } };
    }
    try {
      const media = await this.find(caller, mediaId);
      const answer = await requireView(this.access, caller, media.timelineId, MEDIA_NOT_FOUND, { inContext: true });
      if (media.moderatedHidden && !(await this.seesHidden(caller.userId, answer))) throw hidden(caller, MEDIA_NOT_FOUND);
      return { media };
    } catch (err) {
      if (access !== undefined && (err instanceof UnauthorizedException || err instanceof NotFoundException)) throw new UnauthorizedException(LINK_EXPIRED);
      throw err;
    }
  }

  /** Whether the viewer a signed link names may still see the timeline (the timelines service, answers kept 30 s). */
  private async stillViewable(timelineId: string, viewer: string): Promise<boolean> {
    const key = `${timelineId}:${viewer}`;
    const now = Date.now();
    const known = this.confirmed.get(key);
    if (known && now - known.at < MEDIA_ACCESS_RECHECK_SECONDS * 1000) return known.allowed;
    const allowed = (await this.access.check(timelineId, viewer || undefined, { inContext: true })).canView;
    if (this.confirmed.size > 50_000) this.confirmed.clear();
    this.confirmed.set(key, { allowed, at: now });
    return allowed;
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
