import { BadRequestException, ConflictException, ForbiddenException, GoneException, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Caller, MailSender, SignedInCaller } from '@timeliner/platform';
import { TimelinesEvents } from '@timeliner/proto';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';
import type { TimelineAccess } from '../access/timeline-access.service.js';
import { type CollaboratorDto, mapCollaborator } from '../collaborators/collaborator.dto.js';
import { Collaborator, type CollaboratorRole } from '../collaborators/collaborator.entity.js';
import type { EventWriter } from '@timeliner/platform';
import { isUuid } from '../ids.js';
import { protoRole } from '../proto-enums.js';
import { Timeline } from '../timelines/timeline.entity.js';
import type { Person, UserDirectory } from '../users/user-directory.js';
import { invitationMail } from './invitation-mail.js';
import { hashInvitationToken, INVITATION_TTL_MS, isInvitationToken, newInvitationToken } from './invitation-token.js';
import {
  type AcceptInvitationResultDto,
  effectiveStatus,
  type InvitationDetailDto,
  type InvitationDto,
  type InviteDto,
  type InviteResultDto,
  mapInvitation,
  mapPublicInvitation,
} from './invitation.dto.js';
import { Invitation, type InvitationRole } from './invitation.entity.js';

export const INVITATION_EXPIRED = 'This invitation has expired. Please ask for a new one.';
export const INVITATION_INVALID = 'This invitation link is invalid or has already been used.';
const INVITATION_NOT_FOUND = 'Invitation not found';
const NOT_PENDING = 'This invitation is no longer pending';

/** 410 with `expired: true`: the invitation page tells an expired link from an invalid one by it. */
export class InvitationExpiredException extends GoneException {
  constructor() {
    super(INVITATION_EXPIRED);
  }
}

export interface InvitationServiceOptions {
  /** Origin of the web app, for the link in the e-mail. */
  publicOrigin: string;
}

const context = (caller: Caller) => ({ ...(caller.userId ? { actorUserId: caller.userId } : {}), requestId: caller.requestId });

/**
 * Inviting people to a timeline by e-mail address. An address with an account is added as a
 * collaborator at once; any other gets an e-mailed link (valid 7 days) that works without signing
 * in to view, and accepts once its holder has signed up with that address.
 *
 * Every change to a timeline's team or invitations first locks the timeline row, so concurrent
 * invites, accepts and cancels of one timeline apply one after the other.
 */
export class InvitationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: TimelineAccess,
    private readonly users: UserDirectory,
    private readonly events: EventWriter,
    private readonly mail: MailSender,
    private readonly logger: Logger,
    private readonly options: InvitationServiceOptions,
  ) {}

  async invite(caller: SignedInCaller, timelineId: string, dto: InviteDto): Promise<InviteResultDto> {
    // Checked before asking the auth service, so nobody learns which addresses have accounts.
    await this.access.authorize(caller, timelineId, 'manage');
    const me = await this.users.get(caller.userId);
    if (me?.email === dto.email) throw new BadRequestException('You cannot invite yourself');
    const person = await this.users.findByEmail(dto.email);
    if (person?.userId === caller.userId) throw new BadRequestException('You cannot invite yourself');
    const role = dto.role ?? 'editor';
    const message = dto.message?.trim() || null;

    if (person) {
      const collaborator = await this.dataSource.transaction(async (manager) => {
        await this.access.authorize(caller, timelineId, 'manage', { manager, lock: true });
        return this.addCollaborator(manager, caller, timelineId, person, role, null, 'conflict');
      });
      this.events.committed();
      return { userExists: true, collaborator };
    }

    const invitation = await this.dataSource.transaction(async (manager) => {
      const { timeline } = await this.access.authorize(caller, timelineId, 'manage', { manager, lock: true });
      const inviterName = await this.users.nameOf(caller.userId, manager);
      const token = newInvitationToken();
      const fields = { role, message, inviterUserId: caller.userId, inviterName, inviteTokenHash: hashInvitationToken(token), expiresAt: new Date(Date.now() + INVITATION_TTL_MS) };
      // Inviting an address again refreshes its open invitation (new link, new week) instead of adding another.
      const open = await manager.findOneBy(Invitation, { timelineId, email: dto.email, status: 'pending' });
      const id = open?.id ?? randomUUID();
      if (open) {
        await manager.update(Invitation, { id }, fields);
      } else {
        await manager.insert(Invitation, { id, timelineId, email: dto.email, status: 'pending', acceptedAt: null, acceptedByUserId: null, ...fields });
        await this.events.add(manager, TimelinesEvents.InvitationCreated, {
          invitationId: id,
          timelineId,
          email: dto.email,
          role: protoRole(role),
          inviterId: caller.userId,
        }, context(caller));
      }
      // Sent inside the transaction: if the mail cannot go out, nothing was changed.
      await this.sendInvitation({ to: dto.email, inviterName, timelineTitle: timeline.title, role, message, token, expiresAt: fields.expiresAt });
      return manager.findOneByOrFail(Invitation, { id });
    });
    this.events.committed();
    return { userExists: false, invitation: mapInvitation(invitation) };
  }

  /** Open invitations of a timeline (including those past their expiry, to resend or cancel), newest first. */
  async listForTimeline(caller: SignedInCaller, timelineId: string): Promise<InvitationDto[]> {
    await this.access.authorize(caller, timelineId, 'manage');
    const rows = await this.dataSource.getRepository(Invitation).find({ where: { timelineId, status: 'pending' }, order: { createdAt: 'DESC', id: 'ASC' } });
    return rows.map(mapInvitation);
  }

  async cancel(caller: SignedInCaller, id: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const invitation = await this.lockForOwner(manager, caller, id);
      await manager.update(Invitation, { id }, { status: 'cancelled' });
      await this.events.add(manager, TimelinesEvents.InvitationCancelled, { invitationId: id, timelineId: invitation.timelineId }, context(caller));
    });
    this.events.committed();
  }

  /** A new link and a new week; or, if the address has an account by now, the person is added at once. */
  async resend(caller: SignedInCaller, id: string): Promise<InviteResultDto> {
    const before = isUuid(id) ? await this.dataSource.manager.findOneBy(Invitation, { id }) : null;
    if (!before) throw new NotFoundException(INVITATION_NOT_FOUND);
    await this.access.authorize(caller, before.timelineId, 'manage', { notFoundMessage: INVITATION_NOT_FOUND });
    const person = await this.users.findByEmail(before.email);

    const result = await this.dataSource.transaction(async (manager): Promise<InviteResultDto> => {
      const invitation = await this.lockForOwner(manager, caller, id);
      if (person) {
        const collaborator = await this.addCollaborator(manager, caller, invitation.timelineId, person, invitation.role, invitation.id, 'keep');
        await manager.update(Invitation, { id }, { status: 'accepted', acceptedAt: new Date(), acceptedByUserId: person.userId });
        return { userExists: true, collaborator };
      }
      const timeline = await manager.findOneByOrFail(Timeline, { id: invitation.timelineId });
      const token = newInvitationToken();
      const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
      await manager.update(Invitation, { id }, { inviteTokenHash: hashInvitationToken(token), expiresAt });
      await this.sendInvitation({ to: invitation.email, inviterName: invitation.inviterName, timelineTitle: timeline.title, role: invitation.role, message: invitation.message, token, expiresAt });
      return { userExists: false, invitation: mapInvitation(await manager.findOneByOrFail(Invitation, { id })) };
    });
    this.events.committed();
    return result;
  }

  /** The invitation page's data, for anyone holding the link. */
  async getByToken(token: string): Promise<InvitationDetailDto> {
    const invitation = await this.usable(token);
    const timeline = await this.dataSource.manager.findOneByOrFail(Timeline, { id: invitation.timelineId });
    return {
      invitation: mapPublicInvitation(invitation),
      timeline: { id: timeline.id, title: timeline.title, description: timeline.description, creatorName: timeline.creatorName },
    };
  }

  /** Joins the timeline with the invited role; only the account with the invited address may. */
  async accept(caller: SignedInCaller, token: string): Promise<AcceptInvitationResultDto> {
    const invitation = await this.usable(token);
    const me = await this.users.get(caller.userId);
    if (me?.email !== invitation.email) {
      // The read model may not know the caller yet (just signed up): the auth service does.
      const owner = await this.users.findByEmail(invitation.email);
      if (owner?.userId !== caller.userId) throw new ForbiddenException('This invitation was sent to a different email address');
    }
    await this.dataSource.transaction(async (manager) => {
      const current = await this.relock(manager, invitation);
      const person = { userId: caller.userId, name: await this.users.nameOf(caller.userId, manager) };
      await this.addCollaborator(manager, caller, current.timelineId, person, current.role, current.id, 'keep');
      await manager.update(Invitation, { id: current.id }, { status: 'accepted', acceptedAt: new Date(), acceptedByUserId: caller.userId });
      await this.events.add(manager, TimelinesEvents.InvitationAccepted, { invitationId: current.id, timelineId: current.timelineId, userId: caller.userId }, context(caller));
    });
    this.events.committed();
    return { timeline: { id: invitation.timelineId } };
  }

  /** Whoever holds the link may decline it; no account needed. */
  async decline(caller: Caller, token: string): Promise<void> {
    const invitation = await this.usable(token);
    await this.dataSource.transaction(async (manager) => {
      const current = await this.relock(manager, invitation);
      await manager.update(Invitation, { id: current.id }, { status: 'declined' });
      await this.events.add(manager, TimelinesEvents.InvitationDeclined, { invitationId: current.id, timelineId: current.timelineId }, context(caller));
    });
    this.events.committed();
  }

  /** A pending, unexpired invitation by its token: 404 when unknown or used, 410 when expired. */
  private async usable(token: string, manager: EntityManager = this.dataSource.manager): Promise<Invitation> {
    const invitation = isInvitationToken(token) ? await manager.findOneBy(Invitation, { inviteTokenHash: hashInvitationToken(token) }) : null;
    return this.checkUsable(invitation);
  }

  private checkUsable(invitation: Invitation | null): Invitation {
    if (!invitation || invitation.status !== 'pending') throw new NotFoundException(INVITATION_INVALID);
    if (effectiveStatus(invitation) === 'expired') throw new InvitationExpiredException();
    return invitation;
  }

  /** Locks the invitation's timeline, then reads the invitation again: it may have changed meanwhile. */
  private async relock(manager: EntityManager, invitation: Invitation): Promise<Invitation> {
    await manager.findOne(Timeline, { where: { id: invitation.timelineId }, lock: { mode: 'pessimistic_write' } });
    const current = await manager.findOneBy(Invitation, { id: invitation.id, inviteTokenHash: invitation.inviteTokenHash });
    return this.checkUsable(current);
  }

  /** For the owner's changes by invitation id: 404 unless the caller may see its timeline, 403 unless they own it. */
  private async lockForOwner(manager: EntityManager, caller: SignedInCaller, id: string): Promise<Invitation> {
    const found = isUuid(id) ? await manager.findOneBy(Invitation, { id }) : null;
    if (!found) throw new NotFoundException(INVITATION_NOT_FOUND);
    await this.access.authorize(caller, found.timelineId, 'manage', { manager, lock: true, notFoundMessage: INVITATION_NOT_FOUND });
    const invitation = await manager.findOneByOrFail(Invitation, { id });
    if (invitation.status !== 'pending') throw new ConflictException(NOT_PENDING);
    return invitation;
  }

  private async addCollaborator(
    manager: EntityManager,
    caller: Caller,
    timelineId: string,
    person: Person,
    role: CollaboratorRole,
    invitationId: string | null,
    ifPresent: 'conflict' | 'keep',
  ): Promise<CollaboratorDto> {
    const existing = await manager.findOneBy(Collaborator, { timelineId, userId: person.userId });
    if (existing) {
      if (ifPresent === 'conflict') throw new ConflictException('Already a collaborator');
      return mapCollaborator(existing);
    }
    const id = randomUUID();
    await manager.insert(Collaborator, { id, timelineId, userId: person.userId, userName: person.name.slice(0, 100), role, status: 'active', invitationId });
    await this.events.add(manager, TimelinesEvents.CollaboratorAdded, { timelineId, userId: person.userId, role: protoRole(role), invitationId: invitationId ?? '' }, context(caller));
    return mapCollaborator(await manager.findOneByOrFail(Collaborator, { id }));
  }

  private async sendInvitation(c: { to: string; inviterName: string; timelineTitle: string; role: InvitationRole; message: string | null; token: string; expiresAt: Date }): Promise<void> {
    const link = `${this.options.publicOrigin.replace(/\/+$/, '')}/invite/${c.token}`;
    try {
      await this.mail.send(invitationMail({ ...c, link }));
    } catch (err) {
      this.logger.error({ err }, 'invitation e-mail could not be sent');
      throw new ServiceUnavailableException('The invitation e-mail could not be sent. Please try again.');
    }
  }
}
