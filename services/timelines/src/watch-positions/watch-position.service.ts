import type { SignedInCaller } from '@timeliner/platform';
import type { TimelineAccess } from '../access/timeline-access.service.js';
import { mapWatchPosition, type SaveWatchPositionDto, type WatchPositionAnswerDto } from './watch-position.dto.js';
import type { WatchPositionRepository } from './watch-position.repository.js';

/**
 * "Resume at 2:14": where a person stopped in a timeline, for them alone. Every call is about the
 * caller's own place, so there is nobody else's to ask for; a timeline they may no longer see
 * (made private, a block) is 404 like anywhere else, and its saved place stays unseen.
 */
export class WatchPositionService {
  constructor(
    private readonly positions: WatchPositionRepository,
    private readonly access: TimelineAccess,
  ) {}

  async get(caller: SignedInCaller, timelineId: string): Promise<WatchPositionAnswerDto> {
    await this.access.authorize(caller, timelineId, 'view');
    return mapWatchPosition(await this.positions.find(caller.userId.toLowerCase(), timelineId.toLowerCase()));
  }

  async save(caller: SignedInCaller, timelineId: string, dto: SaveWatchPositionDto): Promise<WatchPositionAnswerDto> {
    await this.access.authorize(caller, timelineId, 'view');
    return mapWatchPosition(await this.positions.save(caller.userId.toLowerCase(), timelineId.toLowerCase(), dto.itemId.toLowerCase(), dto.seconds));
  }

  /** The timeline was watched to its end: nothing to resume. */
  async clear(caller: SignedInCaller, timelineId: string): Promise<void> {
    await this.access.authorize(caller, timelineId, 'view');
    await this.positions.clear(caller.userId.toLowerCase(), timelineId.toLowerCase());
  }
}
