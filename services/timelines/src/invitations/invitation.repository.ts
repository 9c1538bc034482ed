import type { DataSource, EntityManager } from 'typeorm';
import { Invitation } from './invitation.entity.js';

export type NewInvitation = Pick<Invitation, 'id' | 'timelineId' | 'email' | 'role' | 'message' | 'inviterUserId' | 'inviterName' | 'inviteTokenHash' | 'expiresAt'>;
export type InvitationChanges = Partial<Pick<Invitation, 'role' | 'message' | 'inviterUserId' | 'inviterName' | 'inviteTokenHash' | 'expiresAt' | 'status' | 'acceptedAt' | 'acceptedByUserId'>>;

/** Invitations to timelines' teams, as stored (the token only as its hash). */
export class InvitationRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** One invitation by id; null when there is none. */
  find(id: string, tx: EntityManager = this.dataSource.manager): Promise<Invitation | null> {
    return tx.findOneBy(Invitation, { id });
  }

  /** One invitation that must exist (read again after a change or under its timeline's lock). */
  get(tx: EntityManager, id: string): Promise<Invitation> {
    return tx.findOneByOrFail(Invitation, { id });
  }

  /** The invitation behind a link, by the hash of its token; with `id`, only if it is still that one's. */
  findByTokenHash(tokenHash: string, options: { tx?: EntityManager; id?: string } = {}): Promise<Invitation | null> {
    return (options.tx ?? this.dataSource.manager).findOneBy(Invitation, { inviteTokenHash: tokenHash, ...(options.id ? { id: options.id } : {}) });
  }

  /** The open invitation of an address to a timeline, if any. */
  findPending(tx: EntityManager, timelineId: string, email: string): Promise<Invitation | null> {
    return tx.findOneBy(Invitation, { timelineId, email, status: 'pending' });
  }

  /** Open invitations of a timeline (those past their expiry too), newest first. */
  pendingForTimeline(timelineId: string): Promise<Invitation[]> {
    return this.dataSource.getRepository(Invitation).find({ where: { timelineId, status: 'pending' }, order: { createdAt: 'DESC', id: 'ASC' } });
  }

  async insert(tx: EntityManager, invitation: NewInvitation): Promise<void> {
    await tx.insert(Invitation, { ...invitation, status: 'pending', acceptedAt: null, acceptedByUserId: null });
  }

  async update(tx: EntityManager, id: string, changes: InvitationChanges): Promise<void> {
    await tx.update(Invitation, { id }, changes);
  }
}
