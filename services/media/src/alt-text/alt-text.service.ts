import { BadRequestException, NotFoundException } from '@nestjs/common';
import { type Caller, isUuid, type SignedInCaller, type TimelineAccess } from '@timeliner/platform';
import { hidden, MEDIA_NOT_FOUND, requireEdit } from '../access/timeline-access.js';
import type { VideoDto } from '../media/media.dto.js';
import type { Media } from '../media/media.entity.js';
import type { MediaRepository } from '../media/media.repository.js';
import type { MediaService } from '../media/media.service.js';
import { altTextRequired, altTextTooLong, characterCount, cleanAltText, MAX_IMAGE_ALT_TEXT, MAX_VIDEO_DESCRIPTION } from './alt-text-format.js';
import type { MissingAltTextDto } from './alt-text.dto.js';

/** Most items the missing list answers (a timeline holds no more). */
const MISSING_LIST_LIMIT = 1000;

/**
 * Alt text of images and descriptions of videos: set by the timeline's owner and editors, put
 * off once per item with "Add later", and the studio's list of what still lacks it. Whoever may
 * see an item reads its text in the media lists (media.dto.ts).
 */
export class AltTextService {
  constructor(
    private readonly media: MediaRepository,
    private readonly access: TimelineAccess,
    private readonly mediaService: MediaService,
  ) {}

  async update(caller: SignedInCaller, mediaId: string, raw: string): Promise<VideoDto> {
    const media = await this.editable(caller, mediaId);
    // The DTO cleaned it already; cleaning twice changes nothing, and a direct call is safe too.
    const altText = cleanAltText(raw);
    if (altText.length === 0) throw new BadRequestException(altTextRequired(media.mediaType));
    if (characterCount(altText) > (media.mediaType === 'image' ? MAX_IMAGE_ALT_TEXT : MAX_VIDEO_DESCRIPTION)) {
      throw new BadRequestException(altTextTooLong(media.mediaType));
    }
    if (!(await this.media.update(media.id, { altText }))) throw new NotFoundException(MEDIA_NOT_FOUND);
    return this.mediaService.videoDto({ ...media, altText } as Media, caller.userId);
  }

  /** "Add later": remembered, so the prompt is not shown again for this item. Nothing to put off once it has its text. */
  async later(caller: SignedInCaller, mediaId: string): Promise<void> {
    const media = await this.editable(caller, mediaId);
    if (media.altText === null && media.altTextDeferredAt === null) await this.media.update(media.id, { altTextDeferredAt: new Date() });
  }

  async missing(caller: Caller, timelineId: string): Promise<MissingAltTextDto> {
    await requireEdit(this.access, caller, timelineId);
    const all = (await this.media.ordered(timelineId.toLowerCase())).filter((m) => m.altText === null && m.status !== 'error');
    return { count: all.length, items: all.slice(0, MISSING_LIST_LIMIT).map((m) => this.mediaService.videoDto(m, caller.userId ?? '')) };
  }

  private async editable(caller: SignedInCaller, mediaId: string): Promise<Media> {
    if (!isUuid(mediaId)) throw hidden(caller, MEDIA_NOT_FOUND);
    const media = await this.media.find(mediaId.toLowerCase());
    if (!media) throw hidden(caller, MEDIA_NOT_FOUND);
    await requireEdit(this.access, caller, media.timelineId, { notFound: MEDIA_NOT_FOUND });
    return media;
  }
}
