import { BadRequestException, ConflictException, ForbiddenException, GoneException, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { type Caller, clipCodeUnits, describeWait, describeWindow, type EventWriter, isUuid, type MailSender, PersonLimiter, type SignedInCaller, type Transactions } from '@timeliner/platform';
import { TimelinesEvents } from '@timeliner/proto';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { TimelineAccess } from '../access/timeline-access.service.js';
import { type CollaboratorDto, mapCollaborator } from '../collaborators/collaborator.dto.js';
import type { CollaboratorRole } from '../collaborators/collaborator.entity.js';
import type { CollaboratorRepository } from '../collaborators/collaborator.repository.js';
import { protoRole } from '../proto-enums.js';
import type { TimelineRepository } from '../timelines/timeline.repository.js';
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
import type { Invitation, InvitationRole } from './invitation.entity.js';
import type { InvitationRepository } from './invitation.repository.js';
import { refuseBlockedCollaborator } from '../blocks/blocks.js';

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
  /** Origin of the web app, for the link in the e-mail; unset, the origin the request came in on. */
  publicOrigin?: string | undefined;
  /** Invitation e-mails one person may have sent, per hour and per day (default 20 and 50). */
  mailLimits?: InvitationMailLimits;
}

export interface InvitationMailLimits {
  perHour: number;
  perDay: number;
}

export const DEFAULT_INVITATION_MAIL_LIMITS: InvitationMailLimits = { perHour: 20, perDay: 50 };

/** Counts the invitation e-mails each person sends (new invitations and resends alike). */
export const invitationMailLimiter = (limits: InvitationMailLimits = DEFAULT_INVITATION_MAIL_LIMITS): PersonLimiter =>
  new PersonLimiter('invitation-mail', [{ max: limits.perHour, windowSeconds: 3_600 }, { max: limits.perDay, windowSeconds: 86_400 }], (limit, retryAfter) =>
    `You can send at most ${limit.max} invitation e-mails ${describeWindow(limit.windowSeconds)}; try again ${describeWait(retryAfter)}`);

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
  private readonly mailLimiter: PersonLimiter;

  constructor(
    private readonly transactions: Transactions,
    private readonly invitations: InvitationRepository,
    private readonly collaborators: CollaboratorRepository,
    private readonly timelines: TimelineRepository,
    private readonly access: TimelineAccess,
    private readonly users: UserDirectory,
    private readonly events: EventWriter,
    private readonly mail: MailSender,
    private readonly logger: Logger,
    private readonly options: InvitationServiceOptions,
  ) {
    this.mailLimiter = invitationMailLimiter(options.mailLimits);
  }

  async invite(caller: SignedInCaller, timelineId: string, dto: InviteDto, origin?: string): Promise<InviteResultDto> {
    // Checked before asking the auth service, so nobody learns which addresses have accounts.
    await this.access.authorize(caller, timelineId, 'manage');
    const me = await this.users.get(caller.userId);
    if (me?.email === dto.email) throw new BadRequestException('You cannot invite yourself');
    const person = await this.users.findByEmail(dto.email);
    if (person?.userId === caller.userId) throw new BadRequestException('You cannot invite yourself');
    const role = dto.role ?? 'editor';
    const message = dto.message?.trim() || null;

    if (person) {
      const collaborator = await this.transactions.run(async (manager) => {
        await this.access.authorize(caller, timelineId, 'manage', { manager, lock: true });
        return this.addCollaborator(manager, caller, timelineId, person, role, null, 'conflict');
      });
      return { userExists: true, collaborator };
    }

    const invitation = await this.transactions.run(async (manager) => {
      const { timeline } = await this.access.authorize(caller, timelineId, 'manage', { manager, lock: true });
      const inviterName = await this.users.nameOf(caller.userId, manager);
      const token = newInvitationToken();
      const fields = { role, message, inviterUserId: caller.userId, inviterName, inviteTokenHash: hashInvitationToken(token), expiresAt: new Date(Date.now() + INVITATION_TTL_MS) };
      // Inviting an address again refreshes its open invitation (new link, new week) instead of adding another.
      const open = await this.invitations.findPending(manager, timelineId, dto.email);
      const id = open?.id ?? randomUUID();
      if (open) {
        await this.invitations.update(manager, id, fields);
      } else {
        await this.invitations.insert(manager, { id, timelineId, email: dto.email, ...fields });
        await this.events.add(manager, TimelinesEvents.InvitationCreated, {
          invitationId: id,
          timelineId,
          email: dto.email,
          role: protoRole(role),
          inviterId: caller.userId,
        }, context(caller));
      }
      // Counted and sent inside the transaction: if the mail cannot go out, nothing was changed or counted.
      await this.mailLimiter.take(manager, caller.userId);
      await this.sendInvitation({ to: dto.email, inviterName, timelineTitle: timeline.title, role, message, token, expiresAt: fields.expiresAt, origin });
      return this.invitations.get(manager, id);
    });
    return { userExists: false, invitation: mapInvitation(invitation) };
  }

  /** Open invitations of a timeline (including those past their expiry, to resend or cancel), newest first. */
  async listForTimeline(caller: SignedInCaller, timelineId: string): Promise<InvitationDto[]> {
    await this.access.authorize(caller, timelineId, 'manage');
    return (await this.invitations.pendingForTimeline(timelineId)).map(mapInvitation);
  }

  async cancel(caller: SignedInCaller, id: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      const invitation = await this.lockForOwner(manager, caller, id);
      await this.invitations.update(manager, id, { status: 'cancelled' });
      await this.events.add(manager, TimelinesEvents.InvitationCancelled, { invitationId: id, timelineId: invitation.timelineId }, context(caller));
    });
  }

  /** A new link and a new week; or, if the address has an account by now, the person is added at once. */
  async resend(caller: SignedInCaller, id: string, origin?: string): Promise<InviteResultDto> {
    const before = isUuid(id) ? await this.invitations.find(id) : null;
    if (!before) throw new NotFoundException(INVITATION_NOT_FOUND);
    await this.access.authorize(caller, before.timelineId, 'manage', { notFoundMessage: INVITATION_NOT_FOUND });
    const person = await this.users.findByEmail(before.email);

    return this.transactions.run(async (manager): Promise<InviteResultDto> => {
      const invitation = await this.lockForOwner(manager, caller, id);
      if (person) {
        const collaborator = await this.addCollaborator(manager, caller, invitation.timelineId, person, invitation.role, invitation.id, 'keep');
        await this.invitations.update(manager, id, { status: 'accepted', acceptedAt: new Date(), acceptedByUserId: person.userId });
        return { userExists: true, collaborator };
      }
      const timeline = await this.timelines.get(invitation.timelineId, manager);
      const token = newInvitationToken();
      const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
      await this.invitations.update(manager, id, { inviteTokenHash: hashInvitationToken(token), expiresAt });
      await this.mailLimiter.take(manager, caller.userId);
      await this.sendInvitation({ to: invitation.email, inviterName: invitation.inviterName, timelineTitle: timeline.title, role: invitation.role, message: invitation.message, token, expiresAt, origin });
      return { userExists: false, invitation: mapInvitation(await this.invitations.get(manager, id)) };
    });
  }

  /** The invitation page's data, for anyone holding the link. */
  async getByToken(token: string): Promise<InvitationDetailDto> {
    const invitation = await this.usable(token);
    const timeline = await this.timelines.get(invitation.timelineId);
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
    await this.transactions.run(async (manager) => {
      const current = await this.relock(manager, invitation);
      const person = { userId: caller.userId, name: await this.users.nameOf(caller.userId, manager) };
      await this.addCollaborator(manager, caller, current.timelineId, person, current.role, current.id, 'keep');
      await this.invitations.update(manager, current.id, { status: 'accepted', acceptedAt: new Date(), acceptedByUserId: caller.userId });
      await this.events.add(manager, TimelinesEvents.InvitationAccepted, { invitationId: current.id, timelineId: current.timelineId, userId: caller.userId }, context(caller));
    });
    return { timeline: { id: invitation.timelineId } };
  }

  /** Whoever holds the link may decline it; no account needed. */
  async decline(caller: Caller, token: string): Promise<void> {
    const invitation = await this.usable(token);
    await this.transactions.run(async (manager) => {
      const current = await this.relock(manager, invitation);
      await this.invitations.update(manager, current.id, { status: 'declined' });
      await this.events.add(manager, TimelinesEvents.InvitationDeclined, { invitationId: current.id, timelineId: current.timelineId }, context(caller));
    });
  }

  /** A pending, unexpired invitation by its token: 404 when unknown or used, 410 when expired. */
  private async usable(token: string): Promise<Invitation> {
    const invitation = isInvitationToken(token) ? await this.invitations.findByTokenHash(hashInvitationToken(token)) : null;
    return this.checkUsable(invitation);
  }

  private checkUsable(invitation: Invitation | null): Invitation {
    if (!invitation || invitation.status !== 'pending') throw new NotFoundException(INVITATION_INVALID);
    if (effectiveStatus(invitation) === 'expired') throw new InvitationExpiredException();
    return invitation;
  }

  /** Locks the invitation's timeline, then reads the invitation again: it may have changed meanwhile. */
  private async relock(manager: EntityManager, invitation: Invitation): Promise<Invitation> {
    await this.timelines.find(invitation.timelineId, { tx: manager, lock: true });
    const current = await this.invitations.findByTokenHash(invitation.inviteTokenHash, { tx: manager, id: invitation.id });
    return this.checkUsable(current);
  }

  /** For the owner's changes by invitation id: 404 unless the caller may see its timeline, 403 unless they own it. */
  private async lockForOwner(manager: EntityManager, caller: SignedInCaller, id: string): Promise<Invitation> {
    const found = isUuid(id) ? await this.invitations.find(id, manager) : null;
    if (!found) throw new NotFoundException(INVITATION_NOT_FOUND);
    await this.access.authorize(caller, found.timelineId, 'manage', { manager, lock: true, notFoundMessage: INVITATION_NOT_FOUND });
    const invitation = await this.invitations.get(manager, id);
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
    await refuseBlockedCollaborator(manager, person.userId, caller.userId ?? person.userId, timelineId, invitationId);
    const existing = await this.collaborators.find(manager, timelineId, person.userId);
    if (existing) {
      if (ifPresent === 'conflict') throw new ConflictException('Already a collaborator');
      return mapCollaborator(existing);
    }
    const collaborator = await this.collaborators.insert(manager, { id: randomUUID(), timelineId, userId: person.userId, userName: clipCodeUnits(person.name, 100), role, invitationId });
    const membersVersion = await this.collaborators.bumpVersion(manager, timelineId);
    await this.events.add(manager, TimelinesEvents.CollaboratorAdded, { timelineId, userId: person.userId, role: protoRole(role), invitationId: invitationId ?? '', membersVersion }, context(caller));
    return mapCollaborator(collaborator);
  }

  private async sendInvitation(c: { to: string; inviterName: string; timelineTitle: string; role: InvitationRole; message: string | null; token: string; expiresAt: Date; origin: string | undefined }): Promise<void> {
    const origin = this.options.publicOrigin ?? c.origin ?? 'http://localhost:8080';
    const link = `${origin.replace(/\/+$/, '')}/invite/${c.token}`;
    try {
      await this.mail.send(invitationMail({ ...c, link }));
    } catch (err) {
      this.logger.error({ err }, 'invitation e-mail could not be sent');
      throw new ServiceUnavailableException('The invitation e-mail could not be sent. Please try again.');
    }
  }
}
