import type { DataSource, EntityManager } from 'typeorm';
import { Timeline } from '../timelines/timeline.entity.js';
import { Collaborator } from './collaborator.entity.js';

export type NewCollaborator = Pick<Collaborator, 'id' | 'timelineId' | 'userId' | 'userName' | 'role' | 'invitationId'>;

/** The people on timelines' teams, the owner included. */
export class CollaboratorRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The team, owner first, then in the order they joined. */
  team(timelineId: string): Promise<Collaborator[]> {
    return this.dataSource.getRepository(Collaborator)
      .createQueryBuilder('c')
      .where('c.timelineId = :timelineId', { timelineId })
      .orderBy(`CASE WHEN c.role = 'owner' THEN 0 ELSE 1 END`, 'ASC')
      .addOrderBy('c.joinedAt', 'ASC')
      .addOrderBy('c.id', 'ASC')
      .getMany();
  }

  /** The person's row on the timeline's team, whatever its status; null when there is none. */
  find(tx: EntityManager, timelineId: string, userId: string): Promise<Collaborator | null> {
    return tx.findOneBy(Collaborator, { timelineId, userId });
  }

  /** The person's row on the team while active. */
  findActive(tx: EntityManager, timelineId: string, userId: string): Promise<Collaborator | null> {
    return tx.findOneBy(Collaborator, { timelineId, userId, status: 'active' });
  }

  /** Adds an active member and returns the row as stored. */
  async insert(tx: EntityManager, collaborator: NewCollaborator): Promise<Collaborator> {
    await tx.insert(Collaborator, { ...collaborator, status: 'active' });
    return tx.findOneByOrFail(Collaborator, { id: collaborator.id });
  }

  async delete(tx: EntityManager, id: string): Promise<void> {
    await tx.delete(Collaborator, { id });
  }

  /**
   * The team changed in this transaction: its new version (members_version_seq), which the
   * change's event carries.
   */
  async bumpVersion(tx: EntityManager, timelineId: string): Promise<bigint> {
    const [row] = (await tx.query(
      `WITH b AS (UPDATE timelines SET members_version = nextval('members_version_seq') WHERE id = $1 RETURNING members_version::text AS version)
       SELECT * FROM b`,
      [timelineId],
    )) as Array<{ version: string }>;
    return BigInt(row?.version ?? '0');
  }

  /** The heir becomes owner (and the timeline's creator); the previous owner stays as an editor. */
  async transferOwnership(tx: EntityManager, timelineId: string, previousOwnerId: string, heir: Collaborator): Promise<void> {
    await tx.update(Collaborator, { timelineId, userId: previousOwnerId }, { role: 'editor' });
    await tx.update(Collaborator, { id: heir.id }, { role: 'owner' });
    await tx.update(Timeline, { id: timelineId }, { creatorId: heir.userId, creatorName: heir.userName });
  }
}
