import { BadRequestException, NotFoundException } from '@nestjs/common';
import type { SignedInCaller } from '@timeliner/platform';
import { TimelinesEvents } from '@timeliner/proto';
import type { DataSource } from 'typeorm';
import type { TimelineAccess } from '../access/timeline-access.service.js';
import type { EventWriter } from '@timeliner/platform';
import { isUuid } from '../ids.js';
import { mapTimeline, type TransferOwnershipResultDto } from '../timelines/timeline.dto.js';
import { publishSnapshot } from '../timelines/snapshot.js';
import { Timeline } from '../timelines/timeline.entity.js';
import { type CollaboratorDto, mapCollaborator, type TransferOwnershipDto } from './collaborator.dto.js';
import { Collaborator } from './collaborator.entity.js';

export class CollaboratorService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: TimelineAccess,
    private readonly events: EventWriter,
  ) {}

  /** The team, owner first, then in the order they joined. */
  async list(caller: SignedInCaller, timelineId: string): Promise<CollaboratorDto[]> {
    await this.access.authorize(caller, timelineId, 'seeTeam');
    const rows = await this.dataSource.getRepository(Collaborator)
      .createQueryBuilder('c')
      .where('c.timelineId = :timelineId', { timelineId })
      .orderBy(`CASE WHEN c.role = 'owner' THEN 0 ELSE 1 END`, 'ASC')
      .addOrderBy('c.joinedAt', 'ASC')
      .addOrderBy('c.id', 'ASC')
      .getMany();
    return rows.map(mapCollaborator);
  }

  async remove(caller: SignedInCaller, timelineId: string, userId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const { timeline } = await this.access.authorize(caller, timelineId, 'manage', { manager, lock: true });
      if (userId === timeline.creatorId) throw new BadRequestException('The owner cannot be removed');
      const collaborator = isUuid(userId) ? await manager.findOneBy(Collaborator, { timelineId, userId }) : null;
      if (!collaborator) throw new NotFoundException('Collaborator not found');
      await manager.delete(Collaborator, { id: collaborator.id });
      await this.events.add(manager, TimelinesEvents.CollaboratorRemoved, { timelineId, userId }, { actorUserId: caller.userId, requestId: caller.requestId });
    });
    this.events.committed();
  }

  /** Irreversible for the caller: the new owner takes over, the previous owner stays as an editor. */
  async transferOwnership(caller: SignedInCaller, timelineId: string, dto: TransferOwnershipDto): Promise<TransferOwnershipResultDto> {
    const result = await this.dataSource.transaction(async (manager) => {
      const { timeline } = await this.access.authorize(caller, timelineId, 'manage', { manager, lock: true });
      if (dto.newOwnerId === timeline.creatorId) throw new BadRequestException('You already own this timeline');
      const heir = await manager.findOneBy(Collaborator, { timelineId, userId: dto.newOwnerId, status: 'active' });
      if (!heir) throw new BadRequestException('The new owner must be a collaborator');
      await manager.update(Collaborator, { timelineId, userId: timeline.creatorId }, { role: 'editor' });
      await manager.update(Collaborator, { id: heir.id }, { role: 'owner' });
      await manager.update(Timeline, { id: timelineId }, { creatorId: heir.userId, creatorName: heir.userName });
      const context = { actorUserId: caller.userId, requestId: caller.requestId };
      await this.events.add(manager, TimelinesEvents.OwnershipTransferred, {
        timelineId,
        previousOwnerId: timeline.creatorId,
        newOwnerId: heir.userId,
      }, context);
      // The snapshot carries the creator.
      await publishSnapshot(manager, this.events, timelineId, context);
      return { timeline: mapTimeline(await manager.findOneByOrFail(Timeline, { id: timelineId }), 'editor') };
    });
    this.events.committed();
    return result;
  }
}
