import { BadRequestException, NotFoundException } from '@nestjs/common';
import { type Caller, type EventWriter, isUuid, type SignedInCaller, type TimelineAccess, type Transactions } from '@timeliner/platform';
import { MediaEvents } from '@timeliner/proto';
import { hidden, MEDIA_NOT_FOUND, requireEdit } from '../access/timeline-access.js';
import type { VideoDto } from '../media/media.dto.js';
import type { Media } from '../media/media.entity.js';
import type { MediaRepository } from '../media/media.repository.js';
import type { MediaService } from '../media/media.service.js';
import { protoMediaType } from '../uploads/upload-completion.js';
import { altTextRequired, altTextTooLong, characterCount, cleanAltText, MAX_IMAGE_ALT_TEXT, MAX_VIDEO_DESCRIPTION } from './alt-text-format.js';
import type { MissingAltTextDto } from './alt-text.dto.js';

/** Most items the missing list answers (a timeline holds no more). */
const MISSING_LIST_LIMIT = 1000;

/**
 * Alt text of images and descriptions of videos: set by the timeline's owner and editors, put
 * off once per item with "Add later", and the studio's list of what still lacks it. Whoever may
 * see an item reads its text in the media lists (media.dto.ts). Each change is announced
 * (MediaAltTextChanged, with the text's version) in its transaction: the timelines service keeps
 * the description of each timeline's cover for the cards.
 */
export class AltTextService {
  constructor(
    private readonly media: MediaRepository,
    private readonly access: TimelineAccess,
    private readonly mediaService: MediaService,
    private readonly transactions: Transactions,
    private readonly events: EventWriter,
  ) {}

  async update(caller: SignedInCaller, mediaId: string, raw: string): Promise<VideoDto> {
    const media = await this.editable(caller, mediaId);
    // The DTO cleaned it already; cleaning twice changes nothing, and a direct call is safe too.
    const altText = cleanAltText(raw);
    if (altText.length === 0) throw new BadRequestException(altTextRequired(media.mediaType));
    if (characterCount(altText) > (media.mediaType === 'image' ? MAX_IMAGE_ALT_TEXT : MAX_VIDEO_DESCRIPTION)) {
      throw new BadRequestException(altTextTooLong(media.mediaType));
    }
    const changed = await this.transactions.run(async (manager) => {
      const version = await this.media.setAltText(manager, media.id, altText);
      if (version === null) return false;
      await this.events.add(
        manager,
        MediaEvents.MediaAltTextChanged,
        { mediaId: media.id, timelineId: media.timelineId, mediaType: protoMediaType(media.mediaType), altText, version: BigInt(version) },
        { actorUserId: caller.userId, requestId: caller.requestId },
      );
      return true;
    });
    if (!changed) throw new NotFoundException(MEDIA_NOT_FOUND);
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
