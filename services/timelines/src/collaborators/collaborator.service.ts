import { BadRequestException, NotFoundException } from '@nestjs/common';
import { type EventWriter, isUuid, type SignedInCaller, type Transactions } from '@timeliner/platform';
import { TimelinesEvents } from '@timeliner/proto';
import type { TimelineAccess } from '../access/timeline-access.service.js';
import { mapTimeline, type TransferOwnershipResultDto } from '../timelines/timeline.dto.js';
import { publishSnapshot } from '../timelines/snapshot.js';
import type { TimelineRepository } from '../timelines/timeline.repository.js';
import { type CollaboratorDto, mapCollaborator, type TransferOwnershipDto } from './collaborator.dto.js';
import type { CollaboratorRepository } from './collaborator.repository.js';

export const OWNER_CANNOT_LEAVE = 'The owner cannot leave the timeline; transfer ownership first';

export class CollaboratorService {
  constructor(
    private readonly transactions: Transactions,
    private readonly collaborators: CollaboratorRepository,
    private readonly timelines: TimelineRepository,
    private readonly access: TimelineAccess,
    private readonly events: EventWriter,
  ) {}

  /** The team, owner first, then in the order they joined. */
  async list(caller: SignedInCaller, timelineId: string): Promise<CollaboratorDto[]> {
    await this.access.authorize(caller, timelineId, 'seeTeam');
    return (await this.collaborators.team(timelineId)).map(mapCollaborator);
  }

  async remove(caller: SignedInCaller, timelineId: string, userId: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      const { timeline } = await this.access.authorize(caller, timelineId, 'manage', { manager, lock: true });
      if (userId === timeline.creatorId) throw new BadRequestException('The owner cannot be removed');
      const collaborator = isUuid(userId) ? await this.collaborators.find(manager, timelineId, userId) : null;
      if (!collaborator) throw new NotFoundException('Collaborator not found');
      await this.collaborators.delete(manager, collaborator.id);
      const membersVersion = await this.collaborators.bumpVersion(manager, timelineId);
      await this.events.add(manager, TimelinesEvents.CollaboratorRemoved, { timelineId, userId, membersVersion }, { actorUserId: caller.userId, requestId: caller.requestId });
    });
  }

  /**
   * A collaborator other than the owner leaves at once (someone added directly by an invitation
   * to their address never agreed to join): the team and the timeline's private content are gone
   * for them, as when the owner removes them. The owner hands the timeline on first.
   */
  async leave(caller: SignedInCaller, timelineId: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      const { timeline } = await this.access.authorize(caller, timelineId, 'seeTeam', { manager, lock: true });
      if (caller.userId === timeline.creatorId) throw new BadRequestException(OWNER_CANNOT_LEAVE);
      const collaborator = await this.collaborators.find(manager, timeline.id, caller.userId);
      if (!collaborator) throw new NotFoundException('Collaborator not found');
      await this.collaborators.delete(manager, collaborator.id);
      const membersVersion = await this.collaborators.bumpVersion(manager, timeline.id);
      await this.events.add(manager, TimelinesEvents.CollaboratorRemoved, { timelineId: timeline.id, userId: caller.userId, membersVersion }, { actorUserId: caller.userId, requestId: caller.requestId });
    });
  }

  /** Irreversible for the caller: the new owner takes over, the previous owner stays as an editor. */
  async transferOwnership(caller: SignedInCaller, timelineId: string, dto: TransferOwnershipDto): Promise<TransferOwnershipResultDto> {
    return this.transactions.run(async (manager) => {
      const { timeline } = await this.access.authorize(caller, timelineId, 'manage', { manager, lock: true });
      if (dto.newOwnerId === timeline.creatorId) throw new BadRequestException('You already own this timeline');
      const heir = await this.collaborators.findActive(manager, timelineId, dto.newOwnerId);
      if (!heir) throw new BadRequestException('The new owner must be a collaborator');
      await this.collaborators.transferOwnership(manager, timelineId, timeline.creatorId, heir);
      const context = { actorUserId: caller.userId, requestId: caller.requestId };
      await this.events.add(manager, TimelinesEvents.OwnershipTransferred, {
        timelineId,
        previousOwnerId: timeline.creatorId,
        newOwnerId: heir.userId,
        membersVersion: await this.collaborators.bumpVersion(manager, timelineId),
      }, context);
      // The snapshot carries the creator.
      await publishSnapshot(manager, this.events, timelineId, context);
      return { timeline: mapTimeline(await this.timelines.get(timelineId, manager), 'editor') };
    });
  }
}
