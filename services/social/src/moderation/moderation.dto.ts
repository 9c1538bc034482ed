import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { PageQuery } from '@timeliner/platform';
import { REPORTABLE } from '../reports/content-report.entity.js';
import { STAFF_ROLES } from './moderation.entity.js';
import type { ActionRow, AppealRow, ItemRow, NoticeRow, ReportGroupRow } from './moderation.repository.js';

export const ITEM_DECISIONS = ['dismiss', 'hide', 'restore', 'sensitive', 'warn'] as const;
export type ItemDecision = (typeof ITEM_DECISIONS)[number];
export const APPEAL_OUTCOMES = ['uphold', 'grant'] as const;
export const MAX_REASON = 1000;
/** The longest suspension with an end: ten years (longer is for good). */
export const MAX_SUSPENSION_DAYS = 3650;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Why: every decision says it (the author is told, the audit log keeps it). */
const Reason = () => (target: object, key: string | symbol) => {
  ApiProperty({ minLength: 1, maxLength: MAX_REASON, description: 'Why: the author is told, the audit log keeps it' })(target, key);
  Transform(trim)(target, key);
  IsString({ message: 'Reason must be text' })(target, key);
  MinLength(1, { message: 'Please give a reason' })(target, key);
  MaxLength(MAX_REASON, { message: `Reason must be at most ${MAX_REASON} characters` })(target, key);
};

export class ItemDecisionDto {
  @ApiProperty({ enum: ITEM_DECISIONS, description: 'dismiss the reports, hide the item everywhere, restore it, mark it sensitive, or warn its author' })
  @IsIn(ITEM_DECISIONS, { message: `Action must be one of ${ITEM_DECISIONS.join(', ')}` })
  action: ItemDecision;

  @Reason()
  reason: string;
}

export class SuspendDto {
  @Reason()
  reason: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_SUSPENSION_DAYS, description: 'How many days; absent: for good' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: `Days must be a whole number from 1 to ${MAX_SUSPENSION_DAYS}` })
  @Min(1, { message: `Days must be a whole number from 1 to ${MAX_SUSPENSION_DAYS}` })
  @Max(MAX_SUSPENSION_DAYS, { message: `Days must be a whole number from 1 to ${MAX_SUSPENSION_DAYS}` })
  days?: number;
}

export class LiftDto {
  @Reason()
  reason: string;
}

export class AppealDecisionDto {
  @ApiProperty({ enum: APPEAL_OUTCOMES, description: 'uphold: the decision stands; grant: it is undone' })
  @IsIn(APPEAL_OUTCOMES, { message: `Outcome must be one of ${APPEAL_OUTCOMES.join(', ')}` })
  outcome: (typeof APPEAL_OUTCOMES)[number];

  @Reason()
  reason: string;
}

export class AppealDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_REASON, description: 'Why the decision should be undone' })
  @Transform(trim)
  @IsString({ message: 'Appeal must be text' })
  @MinLength(1, { message: 'Please say why' })
  @MaxLength(MAX_REASON, { message: `Appeal must be at most ${MAX_REASON} characters` })
  text: string;
}

export class AuditPageQueryDto extends PageQuery({ defaultLimit: 50, maxLimit: 100 }) {}

export class StaffRoleDto {
  @ApiProperty({ enum: STAFF_ROLES, nullable: true, type: String, description: 'Null for people without a staff role' }) role: string | null;
}

export class ModeratedItemDto {
  @ApiProperty({ enum: REPORTABLE }) contentType: string;
  @ApiProperty({ format: 'uuid' }) contentId: string;
  @ApiProperty({ format: 'uuid' }) authorId: string;
  @ApiProperty({ type: String, nullable: true }) authorUsername: string | null;
  @ApiProperty({ type: String, nullable: true }) authorDisplayName: string | null;
  @ApiProperty({ description: 'What the item says (a timeline: its title and description)' }) text: string;
  @ApiProperty({ description: 'Where the item is seen in the app' }) link: string;
  @ApiProperty() hidden: boolean;
  @ApiProperty() sensitive: boolean;
  @ApiProperty({ description: 'Whether its author is suspended now' }) authorSuspended: boolean;
}

export class ReasonCountDto {
  @ApiProperty() reason: string;
  @ApiProperty({ type: 'integer' }) count: number;
}

export class QueueItemDto {
  @ApiProperty({ enum: REPORTABLE }) contentType: string;
  @ApiProperty({ format: 'uuid' }) contentId: string;
  @ApiProperty({ type: 'integer', description: 'People who reported it' }) reporters: number;
  @ApiProperty({ type: [ReasonCountDto] }) reasons: ReasonCountDto[];
  @ApiProperty({ type: [String], description: "The reporters' own words" }) notes: string[];
  @ApiProperty({ format: 'date-time' }) firstReportedAt: string;
  @ApiProperty({ format: 'date-time' }) lastReportedAt: string;
  @ApiProperty({ type: ModeratedItemDto, nullable: true, description: 'The item as it stands; null when its author deleted it' }) item: ModeratedItemDto | null;
}

export class QueueAppealDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) actionId: string;
  @ApiProperty({ description: 'The decision appealed' }) action: string;
  @ApiProperty({ description: 'Its reason' }) actionReason: string;
  @ApiProperty({ format: 'uuid' }) authorId: string;
  @ApiProperty({ type: String, nullable: true }) authorUsername: string | null;
  @ApiProperty({ type: String, nullable: true }) contentType: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) contentId: string | null;
  @ApiProperty() text: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class QueueDto {
  @ApiProperty({ type: [QueueItemDto] }) items: QueueItemDto[];
  @ApiProperty({ type: [QueueAppealDto] }) appeals: QueueAppealDto[];
}

export class AuditEntryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'null: the operator' }) moderatorId: string | null;
  @ApiProperty({ type: String, nullable: true }) moderatorUsername: string | null;
  @ApiProperty() action: string;
  @ApiProperty({ type: String, nullable: true }) contentType: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) contentId: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) subjectUserId: string | null;
  @ApiProperty({ type: String, nullable: true }) subjectUsername: string | null;
  @ApiProperty() reason: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: "A suspension's end; null with 'suspend': for good" }) until: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class ModerationNoticeDto {
  @ApiProperty({ format: 'uuid' }) actionId: string;
  @ApiProperty({ enum: ['hide', 'sensitive', 'warn', 'suspend'] }) action: string;
  @ApiProperty({ type: String, nullable: true }) contentType: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) contentId: string | null;
  @ApiProperty({ description: 'What was done, as the person reads it' }) summary: string;
  @ApiProperty() reason: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) until: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, nullable: true, enum: ['pending', 'upheld', 'granted'], description: 'null: not appealed (it may be, once)' }) appealStatus: string | null;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export const NOUN: Record<string, string> = { post: 'post', timeline: 'timeline', video: 'video', post_comment: 'comment', timeline_comment: 'comment', video_comment: 'comment' };

/** Where an item is seen in the web app. */
export const linkOf = (item: Pick<ItemRow, 'contentType' | 'postId' | 'timelineId' | 'contentId'>): string =>
  item.postId ? `/post/${item.postId}` : item.timelineId ? `/watch/${item.timelineId}${item.contentType === 'video' ? `?video=${item.contentId}` : ''}` : '/';

export const mapItem = (row: ItemRow, authorSuspended: boolean): ModeratedItemDto => ({
  contentType: row.contentType, contentId: row.contentId, authorId: row.authorId, authorUsername: row.authorUsername, authorDisplayName: row.authorDisplayName,
  text: row.text, link: linkOf(row), hidden: row.hidden, sensitive: row.sensitive, authorSuspended,
});

export const mapGroup = (row: ReportGroupRow, item: ModeratedItemDto | null): QueueItemDto => {
  const counts = new Map<string, number>();
  for (const reason of row.reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return {
    contentType: row.contentType, contentId: row.contentId, reporters: row.reporters,
    reasons: [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    notes: row.notes, firstReportedAt: row.firstReportedAt.toISOString(), lastReportedAt: row.lastReportedAt.toISOString(), item,
  };
};

export const mapAppeal = (row: AppealRow): QueueAppealDto => ({
  id: row.id, actionId: row.actionId, action: row.action, actionReason: row.actionReason, authorId: row.authorId, authorUsername: row.authorUsername,
  contentType: row.contentType, contentId: row.contentId, text: row.text, createdAt: row.createdAt.toISOString(),
});

export const mapAction = (row: ActionRow): AuditEntryDto => ({
  id: row.id, moderatorId: row.moderatorId, moderatorUsername: row.moderatorUsername, action: row.action, contentType: row.contentType, contentId: row.contentId,
  subjectUserId: row.subjectUserId, subjectUsername: row.subjectUsername, reason: row.reason, until: iso(row.until), createdAt: row.createdAt.toISOString(),
});

/** "until 3 March 2027" or "for good". */
export const untilPhrase = (until: Date | null): string =>
  until ? `until ${until.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })}` : 'for good';

/** What the desk did, as its subject reads it. */
export function summaryOf(action: string, contentType: string | null, until: Date | null): string {
  const noun = `your ${NOUN[contentType ?? ''] ?? 'content'}`;
  switch (action) {
    case 'hide':
      return `Removed by moderators: ${noun}`;
    case 'sensitive':
      return `Moderators marked ${noun} sensitive`;
    case 'warn':
      return `Moderators warned you about ${noun}`;
    case 'suspend':
      return `Your account was suspended ${untilPhrase(until)}`;
    default:
      return `Moderators reviewed ${noun}`;
  }
}

export const mapNotice = (row: NoticeRow): ModerationNoticeDto => ({
  actionId: row.actionId, action: row.action, contentType: row.contentType, contentId: row.contentId, summary: summaryOf(row.action, row.contentType, row.until),
  reason: row.reason, until: iso(row.until), createdAt: row.createdAt.toISOString(), appealStatus: row.appealStatus,
});
