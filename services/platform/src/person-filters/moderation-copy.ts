import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { MessageShape } from '@bufbuild/protobuf';
import { type AccountDeletionChangedSchema, type AccountSuspensionChangedSchema, AuthEvents, type ContentModeratedSchema, type PendingAccountDeletion, type ReplayedModerationDecision, SocialEvents } from '@timeliner/proto';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { EntityManager } from 'typeorm';
import { on } from '../bus/event-consumer.js';
import type { EventBus } from '../bus/event-bus.port.js';
import { moderationSubjectOf, type RebuildableReadModel, replayedAccountDeletions, replayedModeration } from '../bus/read-model-rebuild.js';
import { isUuid } from '../payload/payload-checks.js';

/**
 * A service's copy of the moderation desk's standing decisions (issue 28; the social service owns
 * them), kept from ContentModerated and AccountSuspensionChanged, for the services that apply them
 * in their own reads (timelines' pages and CheckAccess, notifications and Web Push): an item the
 * moderators hid (`subject_type` its content type: timeline, video, post, post_comment, timeline_comment,
 * video_comment), and a suspended account (`account`, until `until` or for good). An account waiting
 * to be deleted (auth's AccountDeletionChanged, issue 29) is kept the same way under its own kind
 * (`account_deletion`, versioned by auth) and hidden like a suspended one. A row stays when
 * the decision is undone (`hidden` false) with the version that undid it, so an older event
 * arriving late never brings it back.
 */
@Entity({ name: 'moderation_hidden' })
export class ModerationCopy {
  @PrimaryColumn({ type: 'varchar', length: 20, primaryKeyConstraintName: 'moderation_hidden_pkey' })
  subjectType: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'moderation_hidden_pkey' })
  subjectId: string;

  @Column({ type: 'boolean' })
  hidden: boolean;

  /** A suspension's end; null: for good (or not a suspension). */
  @Column({ type: 'timestamptz', nullable: true })
  until: Date | null;

  @Column({ type: 'bigint' })
  version: string;
}

export const moderationCopyEntities = [ModerationCopy];

/** The statements a service's migration runs to create the copy (and their reverse). */
export const MODERATION_COPY_DDL = {
  up: [
    `CREATE TABLE "moderation_hidden" ("subject_type" character varying(20) NOT NULL, "subject_id" uuid NOT NULL, "hidden" boolean NOT NULL, "until" TIMESTAMP WITH TIME ZONE, "version" bigint NOT NULL, CONSTRAINT "moderation_hidden_pkey" PRIMARY KEY ("subject_type", "subject_id"))`,
  ],
  down: [`DROP TABLE "moderation_hidden"`],
};

const CONTENT_TYPES = new Set(['timeline', 'video', 'post', 'post_comment', 'timeline_comment', 'video_comment']);

async function keep(manager: EntityManager, type: string, id: string, hidden: boolean, until: Date | null, version: bigint): Promise<boolean> {
  const taken = (await manager.query(
    `INSERT INTO moderation_hidden (subject_type, subject_id, hidden, until, version) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (subject_type, subject_id) DO UPDATE SET hidden = EXCLUDED.hidden, until = EXCLUDED.until, version = EXCLUDED.version
      WHERE moderation_hidden.version < EXCLUDED.version
     RETURNING subject_id`,
    [type, id, hidden, until, version.toString()],
  )) as unknown[];
  return taken.length > 0;
}

/** Applies a ContentModerated to the copy; true when it was newer than what the copy held. */
export async function applyContentModerated(manager: EntityManager, e: MessageShape<typeof ContentModeratedSchema>): Promise<boolean> {
  if (!isUuid(e.contentId) || !CONTENT_TYPES.has(e.contentType) || e.version <= 0n) return false;
  return keep(manager, e.contentType, e.contentId.toLowerCase(), e.hidden, null, e.version);
}

/** Applies an AccountSuspensionChanged to the copy; true when it was newer than what the copy held. */
export async function applyAccountSuspensionChanged(manager: EntityManager, e: MessageShape<typeof AccountSuspensionChangedSchema>): Promise<boolean> {
  if (!isUuid(e.userId) || e.version <= 0n) return false;
  return keep(manager, 'account', e.userId.toLowerCase(), e.active, e.until ? timestampDate(e.until) : null, e.version);
}

/** Applies an AccountDeletionChanged to the copy; true when it was newer than what the copy held. */
export async function applyAccountDeletionChanged(manager: EntityManager, e: MessageShape<typeof AccountDeletionChangedSchema>): Promise<boolean> {
  if (!isUuid(e.userId) || e.version <= 0n) return false;
  return keep(manager, 'account_deletion', e.userId.toLowerCase(), e.pending, null, e.version);
}

/** The handlers that keep the copy: a decision taken over an older version only. */
export const moderationCopyHandlers = [
  on(SocialEvents.ContentModerated, async (e, _meta, manager) => {
    await applyContentModerated(manager, e);
  }),
  on(SocialEvents.AccountSuspensionChanged, async (e, _meta, manager) => {
    await applyAccountSuspensionChanged(manager, e);
  }),
  on(AuthEvents.AccountDeletionChanged, async (e, _meta, manager) => {
    await applyAccountDeletionChanged(manager, e);
  }),
];

export interface ModerationCopyModelOptions {
  /** The kinds of subject this copy keeps (search: `timeline` and `account`); every item kind and `account` by default. */
  subjectTypes?: readonly string[];
  /**
   * What the service's live handler does besides the copy when a decision is newer than the
   * copy's (the timelines service's sensitive mark, what notifications forgets of a hidden item).
   */
  applied?: (manager: EntityManager, decision: ReplayedModerationDecision) => Promise<void>;
}

/**
 * The copy's items and suspensions rebuilt from the social service's replay (`read-model rebuild
 * <service> --model moderation`), applied as ContentModerated and AccountSuspensionChanged are: a
 * decision over an older version only. A hidden row the social service no longer has (a
 * suspension lifted, an item purged with its author, while the event was not heard of) is set to
 * not hidden, as the lift would, keeping its version. Keys are moderationKey's `<type>:<id>`.
 */
export function moderationCopyReadModel(bus: EventBus, options: ModerationCopyModelOptions = {}): RebuildableReadModel<ReplayedModerationDecision> {
  const types = options.subjectTypes ?? [...CONTENT_TYPES, 'account'];
  const kept = new Set(types);
  return {
    name: 'moderation',
    ...replayedModeration(bus, types),
    async apply(manager, decision) {
      const type = decision.subject?.subjectType ?? '';
      const id = decision.subject?.subjectId ?? '';
      if (!kept.has(type) || !isUuid(id) || decision.version <= 0n) return;
      const until = type === 'account' && decision.until ? timestampDate(decision.until) : null;
      if (await keep(manager, type, id.toLowerCase(), decision.hidden, until, decision.version)) await options.applied?.(manager, decision);
    },
    async localIds(manager, afterId, limit) {
      const rows = (await manager.query(
        `SELECT subject_type || ':' || subject_id AS id FROM moderation_hidden
          WHERE subject_type = ANY($1::varchar[]) AND hidden AND (subject_type || ':' || subject_id) COLLATE "C" > $2
          ORDER BY (subject_type || ':' || subject_id) COLLATE "C" LIMIT $3`,
        [types, afterId, limit],
      )) as Array<{ id: string }>;
      return rows.map((row) => row.id);
    },
    async remove(manager, key) {
      const { subjectType, subjectId } = moderationSubjectOf(key);
      await unhide(manager, subjectType, subjectId);
    },
  };
}

/**
 * The copy's `account_deletion` rows rebuilt from the auth service's replay of the deletions
 * pending now (`read-model rebuild <service> --model account-deletions`), applied as
 * AccountDeletionChanged is; a pending row auth no longer has (cancelled, or purged, while the
 * event was not heard of) is set to not hidden, as the cancellation would.
 */
export function accountDeletionsCopyReadModel(bus: EventBus): RebuildableReadModel<PendingAccountDeletion> {
  return {
    name: 'account-deletions',
    ...replayedAccountDeletions(bus),
    async apply(manager, deletion) {
      if (!isUuid(deletion.userId) || deletion.version <= 0n) return;
      await keep(manager, 'account_deletion', deletion.userId.toLowerCase(), true, null, deletion.version);
    },
    async localIds(manager, afterId, limit) {
      const rows = (await manager.query(
        `SELECT subject_id AS id FROM moderation_hidden WHERE subject_type = 'account_deletion' AND hidden AND subject_id > $1 ORDER BY subject_id LIMIT $2`,
        [afterId || '00000000-0000-0000-0000-000000000000', limit],
      )) as Array<{ id: string }>;
      return rows.map((row) => row.id);
    },
    async remove(manager, id) {
      await unhide(manager, 'account_deletion', id);
    },
  };
}

async function unhide(manager: EntityManager, type: string, id: string): Promise<void> {
  if (!isUuid(id)) return;
  await manager.query('UPDATE moderation_hidden SET hidden = false, until = NULL WHERE subject_type = $1 AND subject_id = $2 AND hidden', [type, id]);
}

/**
 * SQL fragments over the copy, for a service's reads: true while the account `person` (SQL of its
 * id) is suspended, or waiting to be deleted (out of sight the same way); true while the item of
 * `type` with the id `id` (SQL) is hidden by moderators.
 */
export const copySuspendedSql = (person: string): string =>
  `EXISTS (SELECT 1 FROM moderation_hidden ms WHERE ms.subject_type IN ('account', 'account_deletion') AND ms.subject_id = ${person} AND ms.hidden AND (ms.until IS NULL OR ms.until > now()))`;

/** True while the account `person` (SQL of its id) is waiting to be deleted. */
export const copyDeletionPendingSql = (person: string): string =>
  `EXISTS (SELECT 1 FROM moderation_hidden md WHERE md.subject_type = 'account_deletion' AND md.subject_id = ${person} AND md.hidden)`;

export const copyHiddenItemSql = (type: string, id: string): string =>
  `EXISTS (SELECT 1 FROM moderation_hidden mi WHERE mi.subject_type = ${type} AND mi.subject_id = ${id} AND mi.hidden)`;
