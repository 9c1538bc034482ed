import { BadRequestException, ConflictException, ForbiddenException, NotFoundException } from '@nestjs/common';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { type Caller, decodeCursor, encodeCursor, type EventWriter, idOf, type Page, type SignedInCaller, type Transactions } from '@timeliner/platform';
import { SocialEvents } from '@timeliner/proto';
import { REPORTABLE, type ReportableType } from '../reports/content-report.entity.js';
import type { StaffRole } from './moderation.entity.js';
import {
  type AppealDecisionDto, type AppealDto, type AuditEntryDto, type AuditPageQueryDto, type ItemDecisionDto, type LiftDto, mapAction, mapAppeal, mapGroup, mapItem, mapNotice,
  type ModerationNoticeDto, NOUN, type QueueDto, type StaffRoleDto, type SuspendDto, untilPhrase,
} from './moderation.dto.js';
import type { ItemRow, ModerationRepository } from './moderation.repository.js';

export const STAFF_ONLY = 'Only moderators can do this';
const ITEM_NOT_FOUND = 'Item not found';
const PERSON_NOT_FOUND = 'Person not found';
const QUEUE_SIZE = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What a reporter is told: the outcome, never who decided. */
const REPORTER_TEXT: Record<string, (noun: string) => string> = {
  dismiss: (noun) => `Moderators reviewed the ${noun} you reported and left it up`,
  hide: (noun) => `Moderators removed the ${noun} you reported. Thank you for reporting it`,
  sensitive: (noun) => `Moderators marked the ${noun} you reported as sensitive`,
  warn: (noun) => `Moderators warned the author of the ${noun} you reported`,
};

/** What an author is told: what was done and why. */
const AUTHOR_TEXT: Record<string, (noun: string, reason: string) => string> = {
  hide: (noun, reason) => `Removed by moderators: your ${noun}. Reason: ${reason}. You may appeal once`,
  restore: (noun, reason) => `Moderators restored your ${noun}. Reason: ${reason}`,
  sensitive: (noun, reason) => `Moderators marked your ${noun} sensitive. Reason: ${reason}. You may appeal once`,
  warn: (noun, reason) => `Moderators warned you about your ${noun}. Reason: ${reason}. You may appeal once`,
};

/**
 * The moderation desk: the queue of reported items and appeals, the decisions on an item (dismiss,
 * hide, restore, mark sensitive, warn) and on an account (suspend, lift), each appended to the
 * audit log in the transaction that makes it, announced to the read models (ContentModerated,
 * AccountSuspensionChanged) and told to the reporters and the author (ModerationNotice). Only
 * people the operator made moderators or admins get past the first line of each method; an
 * author sees what was done about their own content and may appeal each decision once.
 */
export class ModerationService {
  constructor(
    private readonly transactions: Transactions,
    private readonly moderation: ModerationRepository,
    private readonly events: EventWriter,
  ) {}

  /** The caller's staff role; 403 for everyone else. */
  async requireStaff(caller: Caller): Promise<StaffRole> {
    const role = caller.userId ? await this.moderation.roleOf(caller.userId) : null;
    if (!role) throw new ForbiddenException(STAFF_ONLY);
    return role;
  }

  /** The caller's staff role, null for everyone else (asked by the account menu of every signed-in person). */
  async role(caller: SignedInCaller): Promise<StaffRoleDto> {
    return { role: await this.moderation.roleOf(caller.userId) };
  }

  async queue(caller: SignedInCaller): Promise<QueueDto> {
    await this.requireStaff(caller);
    const groups = await this.moderation.pendingGroups(QUEUE_SIZE);
    const items = await Promise.all(groups.map(async (group) => mapGroup(group, await this.itemDto(group.contentType, group.contentId))));
    const appeals = (await this.moderation.pendingAppeals(QUEUE_SIZE)).map(mapAppeal);
    return { items, appeals };
  }

  async audit(caller: SignedInCaller, query: AuditPageQueryDto): Promise<Page<AuditEntryDto>> {
    await this.requireStaff(caller);
    const limit = query.limit ?? 50;
    const after = query.cursor ? decodeCursor(query.cursor, ['timestamp', 'uuid']) : undefined;
    const rows = await this.moderation.log(limit + 1, after);
    const page = rows.slice(0, limit);
    return { items: page.map(mapAction), ...(rows.length > limit ? { nextCursor: encodeCursor(page.at(-1)!.key) } : {}) };
  }

  /** A decision on a reported (or any) item. */
  async decide(caller: SignedInCaller, type: string, id: string, dto: ItemDecisionDto): Promise<AuditEntryDto> {
    await this.requireStaff(caller);
    const contentType = REPORTABLE.includes(type as ReportableType) ? (type as ReportableType) : null;
    const contentId = idOf(id);
    if (!contentType || !contentId) throw new NotFoundException(ITEM_NOT_FOUND);
    const actionId = randomUUID();
    await this.transactions.run(async (manager) => {
      const item = await this.moderation.item(contentType, contentId, manager);
      if (!item) throw new NotFoundException(ITEM_NOT_FOUND);
      const noun = NOUN[contentType]!;
      await this.moderation.record(manager, { id: actionId, moderatorId: caller.userId, action: dto.action, contentType, contentId, subjectUserId: item.authorId, reason: dto.reason });
      const reporters = await this.moderation.closeReports(manager, contentType, contentId, dto.action === 'dismiss' ? 'dismissed' : 'resolved', caller.userId, `${dto.action}: ${dto.reason}`);
      if (dto.action === 'hide' || dto.action === 'restore' || dto.action === 'sensitive') {
        const state = dto.action === 'hide' ? { hidden: true, sensitive: item.sensitive } : dto.action === 'sensitive' ? { hidden: item.hidden, sensitive: true } : { hidden: false, sensitive: false };
        await this.announceState(manager, caller, item, state, actionId);
      }
      const told = REPORTER_TEXT[dto.action];
      if (told) for (const reporterId of reporters) await this.notify(manager, caller, reporterId, 'reporter', actionId, item, told(noun));
      const authorText = AUTHOR_TEXT[dto.action];
      if (authorText) await this.notify(manager, caller, item.authorId, 'author', actionId, item, authorText(noun, dto.reason));
    });
    return mapAction((await this.moderation.action(actionId))!);
  }

  async suspend(caller: SignedInCaller, userId: string, dto: SuspendDto): Promise<AuditEntryDto> {
    await this.requireStaff(caller);
    const id = await this.requirePerson(userId);
    if (id === caller.userId) throw new BadRequestException('You cannot suspend yourself');
    const until = dto.days ? new Date(Date.now() + dto.days * DAY_MS) : null;
    const actionId = randomUUID();
    await this.transactions.run(async (manager) => {
      await this.moderation.record(manager, { id: actionId, moderatorId: caller.userId, action: 'suspend', subjectUserId: id, reason: dto.reason, until });
      const version = await this.moderation.suspend(manager, id, until, dto.reason, actionId);
      await this.events.add(manager, SocialEvents.AccountSuspensionChanged, {
        actionId, userId: id, active: true, ...(until ? { until: timestampFromDate(until) } : {}), reason: dto.reason, version, at: timestampFromDate(new Date()),
      }, { actorUserId: caller.userId, requestId: caller.requestId });
      await this.notifyAccount(manager, caller, id, actionId, `Your account was suspended ${untilPhrase(until)}. Reason: ${dto.reason}. You may appeal once`);
    });
    return mapAction((await this.moderation.action(actionId))!);
  }

  async lift(caller: SignedInCaller, userId: string, dto: LiftDto): Promise<AuditEntryDto> {
    await this.requireStaff(caller);
    const id = await this.requirePerson(userId);
    const actionId = randomUUID();
    await this.transactions.run(async (manager) => this.liftIn(manager, caller, id, dto.reason, actionId));
    return mapAction((await this.moderation.action(actionId))!);
  }

  /** Uphold (the decision stands) or grant (it is undone) an appeal; the author is told. */
  async decideAppeal(caller: SignedInCaller, appealId: string, dto: AppealDecisionDto): Promise<AuditEntryDto> {
    await this.requireStaff(caller);
    const id = idOf(appealId);
    if (!id) throw new NotFoundException('Appeal not found');
    const actionId = randomUUID();
    await this.transactions.run(async (manager) => {
      const appeal = await this.moderation.appeal(manager, id);
      if (!appeal) throw new NotFoundException('Appeal not found');
      if (appeal.status !== 'pending') throw new ConflictException('This appeal has already been decided');
      const granted = dto.outcome === 'grant';
      await this.moderation.closeAppeal(manager, id, granted ? 'granted' : 'upheld');
      const contentType = appeal.contentType as ReportableType | null;
      const noun = contentType ? NOUN[contentType]! : 'account';
      if (granted && appeal.action === 'suspend') {
        await this.liftIn(manager, caller, appeal.authorId, `Appeal granted: ${dto.reason}`, actionId, false);
      } else {
        await this.moderation.record(manager, { id: actionId, moderatorId: caller.userId, action: granted ? 'appeal_granted' : 'appeal_upheld', contentType, contentId: appeal.contentId, subjectUserId: appeal.authorId, reason: dto.reason });
        const item = contentType && appeal.contentId ? await this.moderation.item(contentType, appeal.contentId, manager) : null;
        if (granted && item && (appeal.action === 'hide' || appeal.action === 'sensitive')) {
          await this.announceState(manager, caller, item, { hidden: appeal.action === 'hide' ? false : item.hidden, sensitive: appeal.action === 'sensitive' ? false : item.sensitive }, actionId);
        }
      }
      const text = granted ? `Moderators granted your appeal about your ${noun}. Reason: ${dto.reason}` : `Moderators looked at your appeal about your ${noun} again: the decision stands. Reason: ${dto.reason}`;
      await this.events.add(manager, SocialEvents.ModerationNotice, {
        noticeId: randomUUID(), recipientId: appeal.authorId, role: 'author', actionId, contentType: appeal.contentType ?? 'account', contentId: appeal.contentId ?? appeal.authorId, text, at: timestampFromDate(new Date()),
      }, { actorUserId: caller.userId, requestId: caller.requestId });
    });
    return mapAction((await this.moderation.action(actionId))!);
  }

  /** What moderators did about the caller's content or account. */
  async notices(caller: SignedInCaller): Promise<ModerationNoticeDto[]> {
    return (await this.moderation.notices(caller.userId, 100)).map(mapNotice);
  }

  /** The author's one appeal of a decision about their content or account; it joins the queue. */
  async appeal(caller: SignedInCaller, actionId: string, dto: AppealDto): Promise<ModerationNoticeDto> {
    const id = idOf(actionId);
    const action = id ? await this.moderation.action(id) : null;
    if (!action || action.subjectUserId !== caller.userId || !['hide', 'sensitive', 'warn', 'suspend'].includes(action.action)) throw new NotFoundException('Decision not found');
    await this.transactions.run(async (manager) => {
      const filed = await this.moderation.addAppeal(manager, { id: randomUUID(), actionId: action.id, authorId: caller.userId, contentType: action.contentType, contentId: action.contentId, text: dto.text });
      if (!filed) throw new ConflictException('You have already appealed this decision');
      await this.moderation.record(manager, { id: randomUUID(), moderatorId: null, action: 'appeal', contentType: action.contentType, contentId: action.contentId, subjectUserId: caller.userId, reason: dto.text });
    });
    return (await this.notices(caller)).find((n) => n.actionId === action.id)!;
  }

  private async liftIn(manager: EntityManager, caller: SignedInCaller, userId: string, reason: string, actionId: string, notify = true): Promise<void> {
    const version = await this.moderation.lift(manager, userId);
    if (version === null) throw new ConflictException('This account is not suspended');
    await this.moderation.record(manager, { id: actionId, moderatorId: caller.userId, action: 'lift', subjectUserId: userId, reason });
    await this.events.add(manager, SocialEvents.AccountSuspensionChanged, { actionId, userId, active: false, reason, version, at: timestampFromDate(new Date()) }, { actorUserId: caller.userId, requestId: caller.requestId });
    if (notify) await this.notifyAccount(manager, caller, userId, actionId, `Moderators lifted the suspension of your account. Reason: ${reason}`);
  }

  private async announceState(manager: EntityManager, caller: SignedInCaller, item: ItemRow, state: { hidden: boolean; sensitive: boolean }, actionId: string): Promise<void> {
    const version = await this.moderation.setState(manager, item, state, actionId);
    await this.events.add(manager, SocialEvents.ContentModerated, {
      actionId, contentType: item.contentType, contentId: item.contentId, authorId: item.authorId, ...state, version, at: timestampFromDate(new Date()),
    }, { actorUserId: caller.userId, requestId: caller.requestId });
  }

  private async notify(manager: EntityManager, caller: SignedInCaller, recipientId: string, role: 'reporter' | 'author', actionId: string, item: ItemRow, text: string): Promise<void> {
    await this.events.add(manager, SocialEvents.ModerationNotice, {
      noticeId: randomUUID(), recipientId, role, actionId, contentType: item.contentType, contentId: item.contentId, text, at: timestampFromDate(new Date()),
    }, { actorUserId: caller.userId, requestId: caller.requestId });
  }

  private async notifyAccount(manager: EntityManager, caller: SignedInCaller, userId: string, actionId: string, text: string): Promise<void> {
    await this.events.add(manager, SocialEvents.ModerationNotice, {
      noticeId: randomUUID(), recipientId: userId, role: 'author', actionId, contentType: 'account', contentId: userId, text, at: timestampFromDate(new Date()),
    }, { actorUserId: caller.userId, requestId: caller.requestId });
  }

  private async requirePerson(userId: string): Promise<string> {
    const id = idOf(userId);
    if (!id || !(await this.moderation.personExists(id))) throw new NotFoundException(PERSON_NOT_FOUND);
    return id;
  }

  private async itemDto(type: ReportableType, id: string) {
    const item = await this.moderation.item(type, id);
    return item ? mapItem(item, (await this.moderation.suspension(item.authorId)) !== null) : null;
  }
}
