import { BadRequestException, HttpException, HttpStatus, NotFoundException, UnauthorizedException } from '@nestjs/common';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { type Caller, type EventWriter, isUuid, type SignedInCaller, type TimelineAccess, type Transactions } from '@timeliner/platform';
import { CaptionEvents } from '@timeliner/proto';
import { hidden, MEDIA_NOT_FOUND, requireEdit, requireView } from '../access/timeline-access.js';
import type { Media } from '../media/media.entity.js';
import type { MediaRepository } from '../media/media.repository.js';
import type { MediaUrlSigner } from '../media/media-urls.js';
import { CAPTION_TOO_LARGE, captionLanguage, CaptionFormatError, MAX_CAPTION_BYTES, parseCaptions, type ParsedCaptions } from './caption-format.js';
import { type CaptionTrackDto, mapCaption } from './captions.dto.js';
import type { CaptionsRepository } from './captions.repository.js';

/** Caption tracks one video may have (one per language). */
export const MAX_TRACKS_PER_VIDEO = 20;
export const CAPTION_NOT_FOUND = 'No captions in this language';
export const BAD_LANGUAGE = 'language must be a language tag such as en, fr or pt-BR';
export const SEND_A_FILE = "Send a multipart form with the language in the 'language' field, then the caption file in the 'file' field";
const LINK_EXPIRED = 'Link expired';
/** Multipart boundaries and the language field around the file. */
const FORM_OVERHEAD = 16 * 1024;

export class CaptionTooLargeError extends HttpException {
  constructor() {
    super(CAPTION_TOO_LARGE, HttpStatus.PAYLOAD_TOO_LARGE);
  }
}

export interface ServedCaptions {
  vtt: string;
  revision: number;
  updatedAt: Date;
  /** Served for a valid `access` token rather than the caller's identity. */
  signed: boolean;
}

/**
 * Caption tracks of videos: whoever may change a timeline's media adds (or replaces) and removes
 * them; whoever may watch the video reads them. Each change is announced (`media.captions.changed`)
 * with the cues' words, which search indexes.
 */
export class CaptionsService {
  constructor(
    private readonly captions: CaptionsRepository,
    private readonly media: MediaRepository,
    private readonly transactions: Transactions,
    private readonly access: TimelineAccess,
    private readonly events: EventWriter,
    private readonly urls: MediaUrlSigner,
  ) {}

  async list(caller: Caller, mediaId: string): Promise<CaptionTrackDto[]> {
    const video = await this.viewable(caller, mediaId);
    const expiry = this.urls.expiry();
    return (await this.captions.list(video.id)).map((row) => mapCaption(row, (url) => this.urls.sign(url, video.id, expiry)));
  }

  /** The WebVTT file: for a valid `access` token of the video, or a caller who may watch it. */
  async file(caller: Caller, mediaId: string, language: string, access?: string): Promise<ServedCaptions> {
    const lang = captionLanguage(language);
    const signed = access !== undefined && isUuid(mediaId) && this.urls.verify(mediaId, access) !== null;
    let video: Media;
    if (signed) {
      const found = await this.media.find(mediaId.toLowerCase());
      if (!found) throw new NotFoundException(MEDIA_NOT_FOUND);
      video = found;
    } else {
      try {
        video = await this.viewable(caller, mediaId);
      } catch (err) {
        if (access !== undefined && (err instanceof UnauthorizedException || err instanceof NotFoundException)) throw new UnauthorizedException(LINK_EXPIRED);
        throw err;
      }
    }
    const track = lang ? await this.captions.vtt(video.id, lang) : null;
    if (!track) throw new NotFoundException(CAPTION_NOT_FOUND);
    return { ...track, signed };
  }

  /** Reads the form (language, then file), checks and sanitises the file, and stores it as the track of that language. */
  async upload(caller: SignedInCaller, mediaId: string, request: FastifyRequest): Promise<CaptionTrackDto> {
    const video = await this.editable(caller, mediaId);
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_CAPTION_BYTES + FORM_OVERHEAD) throw new CaptionTooLargeError();
    if (!request.isMultipart()) throw new BadRequestException(SEND_A_FILE);
    let part: MultipartFile | undefined;
    try {
      part = await request.file({ limits: { fileSize: MAX_CAPTION_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 64 } });
    } catch (err) {
      throw new BadRequestException(SEND_A_FILE, { cause: err });
    }
    if (!part || part.fieldname !== 'file') {
      part?.file.resume();
      throw new BadRequestException(SEND_A_FILE);
    }
    const field = part.fields.language;
    const language = captionLanguage(field && !Array.isArray(field) && field.type === 'field' ? field.value : undefined);
    if (!language) {
      part.file.resume();
      throw new BadRequestException(BAD_LANGUAGE);
    }
    let bytes: Buffer;
    try {
      bytes = await part.toBuffer();
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new CaptionTooLargeError();
      throw err;
    }
    let parsed: ParsedCaptions;
    try {
      parsed = await parseCaptions(bytes);
    } catch (err) {
      if (err instanceof CaptionFormatError) {
        if (err.message === CAPTION_TOO_LARGE) throw new CaptionTooLargeError();
        throw new BadRequestException(err.message);
      }
      throw err;
    }
    const row = await this.transactions.run(async (manager) => {
      const stored = await this.captions.upsert(manager, {
        mediaId: video.id, language, timelineId: video.timelineId, sourceFormat: parsed.format, vtt: parsed.vtt, cueCount: parsed.cues.length, uploadedBy: caller.userId,
      });
      if ((await this.captions.count(manager, video.id)) > MAX_TRACKS_PER_VIDEO) throw new BadRequestException(`A video can have captions in at most ${MAX_TRACKS_PER_VIDEO} languages`);
      await this.events.add(manager, CaptionEvents.CaptionsChanged, {
        mediaId: video.id,
        timelineId: video.timelineId,
        language,
        revision: BigInt(stored.revision),
        removed: false,
        cues: parsed.cues.map((cue) => ({ startMs: Math.round(cue.start * 1000), endMs: Math.round(cue.end * 1000), text: cue.plain })),
      }, { actorUserId: caller.userId, requestId: caller.requestId });
      return stored;
    });
    return mapCaption(row, (url) => this.urls.sign(url, video.id));
  }

  async remove(caller: SignedInCaller, mediaId: string, language: string): Promise<void> {
    const video = await this.editable(caller, mediaId);
    const lang = captionLanguage(language);
    if (!lang) throw new NotFoundException(CAPTION_NOT_FOUND);
    const removed = await this.transactions.run(async (manager) => {
      const revision = await this.captions.remove(manager, video.id, lang);
      if (revision === null) return false;
      await this.events.add(manager, CaptionEvents.CaptionsChanged, {
        mediaId: video.id, timelineId: video.timelineId, language: lang, revision: BigInt(revision), removed: true, cues: [],
      }, { actorUserId: caller.userId, requestId: caller.requestId });
      return true;
    });
    if (!removed) throw new NotFoundException(CAPTION_NOT_FOUND);
  }

  private async find(caller: Caller, mediaId: string): Promise<Media> {
    if (!isUuid(mediaId)) throw hidden(caller, MEDIA_NOT_FOUND);
    const media = await this.media.find(mediaId.toLowerCase());
    if (!media || media.mediaType !== 'video') throw hidden(caller, MEDIA_NOT_FOUND);
    return media;
  }

  private async viewable(caller: Caller, mediaId: string): Promise<Media> {
    const media = await this.find(caller, mediaId);
    await requireView(this.access, caller, media.timelineId, MEDIA_NOT_FOUND);
    return media;
  }

  private async editable(caller: SignedInCaller, mediaId: string): Promise<Media> {
    const media = await this.find(caller, mediaId);
    await requireEdit(this.access, caller, media.timelineId, { notFound: MEDIA_NOT_FOUND });
    return media;
  }
}
