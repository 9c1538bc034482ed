import { randomUUID } from 'node:crypto';
import { create, type MessageInitShape, toBinary } from '@bufbuild/protobuf';
import {
  AuthRpc,
  MediaRpc,
  type PendingAccountDeletion,
  ReadModelProgressSchema,
  ReadModelRebuild,
  type ReplayedMedia,
  type ReplayedModerationDecision,
  type ReplayedPerson,
  SocialRpc,
  type TimelineSnapshot,
  TimelinesRpc,
} from '@timeliner/proto';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventBus, Subscription } from './event-bus.port.js';
import { requestRpc, serveRpc } from './rpc.js';

/**
 * A read model (a copy a service keeps of another service's data, from its events) that can be
 * rebuilt from its producer's current state: the producer answers a replay request page by page
 * with the rows as they stand, each carrying the version its events carry, and the copy applies
 * them as it applies the live events (the newer version wins), in its live tables. So a rebuild
 * runs while the service answers and its consumers go on: nothing is emptied first, a replayed row
 * never undoes a newer live change, and a rebuild that stops half-way is simply run again.
 */
export interface RebuildableReadModel<Row> {
  /** `timelines`, `users`, ...: what `--model` names. */
  name: string;
  /** The producer's rows after `afterId` in id order ('' for the first page); `total` on the first page. */
  fetchPage(afterId: string, limit: number): Promise<{ rows: Row[]; total: number }>;
  /** The producer's rows among these ids: those that still exist. */
  fetchIds(ids: string[]): Promise<Row[]>;
  idOf(row: Row): string;
  /** Applies one replayed row as its live event would (versioned: an older one changes nothing). */
  apply(manager: EntityManager, row: Row): Promise<void>;
  /**
   * Applies a whole page at once, as `apply` would row by row (one multi-row statement with the
   * same version condition instead of a few statements per row); used instead of `apply` when given.
   */
  applyPage?(manager: EntityManager, rows: Row[]): Promise<void>;
  /** The copy's ids after `afterId` in id order ('' for the first). */
  localIds(manager: EntityManager, afterId: string, limit: number): Promise<string[]>;
  /** Removes a row its producer no longer has, as its deletion event would (tombstone included). */
  remove(manager: EntityManager, id: string): Promise<void>;
  /** After each committed page (what a live handler does after its commit: a cache told). */
  afterPage?(): void;
}

export interface RebuildProgress {
  model: string;
  done: number;
  total: number;
  removed: number;
  elapsedSeconds: number;
  /** Rows per second so far. */
  rate: number;
  finished: boolean;
}

export interface RebuildOptions {
  /** Rows asked of the producer at once, applied in one transaction; default 500. */
  pageSize?: number;
  /** Called after every page and at the end. */
  onProgress?: (progress: RebuildProgress) => void;
  /** Checked between pages: a rebuild stopped this way is run again from the start later. */
  signal?: AbortSignal;
}

/**
 * Rebuilds one read model in place, a page at a time: applies a page the producer replays, then
 * looks at the rows of the copy within that page's range of ids that the page did not bring (a
 * row made after its page went by, or one the producer deleted while the deletion was not heard
 * of here, as beyond the stream's retention): asked again by id, those the producer has are
 * applied, the others removed. Nothing is kept from one page to the next but the last id, so the
 * memory a rebuild takes is a page's, whatever the size of the model.
 */
export async function rebuildReadModel<Row>(dataSource: DataSource, model: RebuildableReadModel<Row>, options: RebuildOptions = {}): Promise<RebuildProgress> {
  const pageSize = options.pageSize ?? 500;
  const started = performance.now();
  const progress: RebuildProgress = { model: model.name, done: 0, total: 0, removed: 0, elapsedSeconds: 0, rate: 0, finished: false };
  const report = () => {
    progress.elapsedSeconds = (performance.now() - started) / 1000;
    progress.rate = progress.elapsedSeconds > 0 ? progress.done / progress.elapsedSeconds : 0;
    options.onProgress?.({ ...progress });
  };
  const applyAll = async (rows: Row[]) => {
    await dataSource.transaction(async (manager) => {
      if (model.applyPage) await model.applyPage(manager, rows);
      else for (const row of rows) await model.apply(manager, row);
    });
    model.afterPage?.();
  };

  /** The copy's rows above `after` up to `upto` (to the end without it) that `brought` lacks: confirmed by id, or removed. */
  const reconcile = async (after: string, upto: string | undefined, brought: ReadonlySet<string>) => {
    let cursor = after;
    for (;;) {
      options.signal?.throwIfAborted();
      const ids = await model.localIds(dataSource.manager, cursor, pageSize);
      const inRange = upto === undefined ? ids : ids.filter((id) => id <= upto);
      const unseen = inRange.filter((id) => !brought.has(id));
      if (unseen.length > 0) {
        const found = await model.fetchIds(unseen);
        const exists = new Set(found.map((row) => model.idOf(row)));
        await dataSource.transaction(async (manager) => {
          if (model.applyPage) await model.applyPage(manager, found);
          else for (const row of found) await model.apply(manager, row);
          for (const id of unseen) if (!exists.has(id)) await model.remove(manager, id);
        });
        model.afterPage?.();
        progress.removed += unseen.length - exists.size;
      }
      if (ids.length < pageSize || inRange.length < ids.length) return;
      cursor = ids[ids.length - 1]!;
    }
  };

  let after = '';
  for (;;) {
    options.signal?.throwIfAborted();
    const page = await model.fetchPage(after, pageSize);
    if (after === '') progress.total = page.total;
    const last = page.rows.length === pageSize ? model.idOf(page.rows[page.rows.length - 1]!) : undefined;
    if (page.rows.length > 0) await applyAll(page.rows);
    progress.done += page.rows.length;
    progress.total = Math.max(progress.total, progress.done);
    // The last page's range runs to the end of the copy.
    await reconcile(after, last, new Set(page.rows.map((row) => model.idOf(row))));
    report();
    if (last === undefined) break;
    after = last;
  }
  progress.finished = true;
  report();
  return { ...progress };
}

/** How often a running rebuild repeats its last progress when no page has finished since. */
const HEARTBEAT_MS = 5_000;

export interface ReadModelRebuildOptions {
  /** The consumer service (`search`): the request subject, queue group and progress subject. */
  service: string;
  dataSource: DataSource;
  logger: Logger;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  models: Array<RebuildableReadModel<any>>;
  pageSize?: number;
}

export interface ReadModelRebuildResponder extends Subscription {
  /** The rebuild this replica runs, if any (tests wait for it). */
  running(): Promise<void> | undefined;
}

/**
 * Answers `ReadModelRebuild.rpc(service)` (the `read-model rebuild` command, the Kubernetes Job):
 * starts rebuilding the named model, or all, in the background on this replica and answers at once;
 * progress goes out on `ReadModelRebuild.progressSubject(service)` after every page and at least
 * every 5 s while it runs, and to the
 * log every 10 s and at the end. One rebuild at a time per service across its replicas (a Postgres
 * advisory lock): a request while one runs is told so and starts nothing.
 */
export async function serveReadModelRebuild(bus: EventBus, options: ReadModelRebuildOptions): Promise<ReadModelRebuildResponder> {
  const { service, dataSource, logger, models } = options;
  const progressSubject = ReadModelRebuild.progressSubject(service);
  let current: Promise<void> | undefined;
  const abort = new AbortController();

  const broadcast = (message: MessageInitShape<typeof ReadModelProgressSchema>) =>
    bus
      .broadcast({
        subject: progressSubject,
        meta: { id: randomUUID(), type: 'read_model.progress', version: 1, occurredAt: new Date().toISOString() },
        data: toBinary(ReadModelProgressSchema, create(ReadModelProgressSchema, { service, ...message })),
      })
      .catch(() => undefined);

  const run = async (rebuildId: string, chosen: Array<RebuildableReadModel<unknown>>, release: () => Promise<void>) => {
    try {
      for (const model of chosen) {
        logger.info({ rebuildId, model: model.name }, 'read model rebuild started');
        let logged = performance.now();
        let last: RebuildProgress = { model: model.name, done: 0, total: 0, removed: 0, elapsedSeconds: 0, rate: 0, finished: false };
        const tell = (p: RebuildProgress) =>
          void broadcast({ rebuildId, model: p.model, done: BigInt(p.done), total: BigInt(p.total), rate: p.rate, elapsedSeconds: p.elapsedSeconds, removed: BigInt(p.removed), finished: p.finished });
        // A slow page (a busy database) still says the rebuild is alive: the command gives up only
        // when nothing is heard, which then means the replica doing it is gone.
        const heartbeat = setInterval(() => tell(last), HEARTBEAT_MS);
        heartbeat.unref();
        try {
          const result = await rebuildReadModel(dataSource, model, {
            ...(options.pageSize ? { pageSize: options.pageSize } : {}),
            signal: abort.signal,
            onProgress: (p) => {
              last = p;
              tell(p);
              if (!p.finished && performance.now() - logged > 10_000) {
                logged = performance.now();
                logger.info({ rebuildId, ...p }, 'read model rebuild progress');
              }
            },
          });
          logger.info({ rebuildId, ...result }, 'read model rebuilt');
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          logger.error({ rebuildId, model: model.name, err: error }, 'read model rebuild failed; run it again (it starts over, applying only what is newer)');
          await broadcast({ rebuildId, model: model.name, finished: true, error: reason });
          if (abort.signal.aborted) return;
        } finally {
          clearInterval(heartbeat);
        }
      }
    } finally {
      await release();
    }
  };

  const subscription = await serveRpc(bus, ReadModelRebuild.rpc(service), service, async ({ model }) => {
    const chosen = model ? models.filter((m) => m.name === model) : models;
    if (chosen.length === 0) throw new Error(`${service} has no read model "${model}" (it has ${models.map((m) => m.name).join(', ')})`);
    const names = chosen.map((m) => m.name);
    if (current) return { models: names, alreadyRunning: true };
    // Held for the whole rebuild by a transaction left open on a connection of its own: one at a
    // time across the replicas, and through a pooler in transaction mode too (a session's lock
    // would stay behind on whichever server connection took it).
    const lock = dataSource.createQueryRunner();
    await lock.connect();
    await lock.startTransaction();
    const [{ locked }] = (await lock.query('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked', [`read_model_rebuild:${service}`])) as [{ locked: boolean }];
    const release = async () => {
      await lock.rollbackTransaction().catch(() => undefined);
      await lock.release();
    };
    if (!locked) {
      await release();
      return { models: names, alreadyRunning: true };
    }
    const rebuildId = randomUUID();
    current = run(rebuildId, chosen, release).finally(() => {
      current = undefined;
    });
    return { rebuildId, models: names, alreadyRunning: false };
  });

  return {
    running: () => current,
    async unsubscribe() {
      await subscription.unsubscribe();
      abort.abort();
      await current;
    },
  };
}

/**
 * The producer's side of a model of timelines (search, social, notifications keep one): pages and
 * ids from the timelines service's replay, as TimelineSnapshots with their revision.
 */
export function replayedTimelines(bus: EventBus, timeoutMs = 30_000): Pick<RebuildableReadModel<TimelineSnapshot>, 'fetchPage' | 'fetchIds' | 'idOf'> {
  return {
    async fetchPage(afterId, limit) {
      const reply = await requestRpc(bus, TimelinesRpc.Replay, { afterId, limit }, { timeoutMs });
      return { rows: reply.snapshots, total: Number(reply.total) };
    },
    async fetchIds(ids) {
      return (await requestRpc(bus, TimelinesRpc.Replay, { timelineIds: ids }, { timeoutMs })).snapshots;
    },
    idOf: (snapshot) => snapshot.timelineId.toLowerCase(),
  };
}

/**
 * The producer's side of a model of people (search, social, timelines, notifications keep one):
 * pages and ids from the auth service's replay, as ReplayedPersons with their profile version.
 */
export function replayedPeople(bus: EventBus, timeoutMs = 30_000): Pick<RebuildableReadModel<ReplayedPerson>, 'fetchPage' | 'fetchIds' | 'idOf'> {
  return {
    async fetchPage(afterId, limit) {
      const reply = await requestRpc(bus, AuthRpc.Replay, { afterId, limit }, { timeoutMs });
      return { rows: reply.people, total: Number(reply.total) };
    },
    async fetchIds(ids) {
      return (await requestRpc(bus, AuthRpc.Replay, { userIds: ids }, { timeoutMs })).people;
    },
    idOf: (person) => person.userId.toLowerCase(),
  };
}

/**
 * The producer's side of a model of media (social's and notifications' videos, the timelines'
 * descriptions): pages and ids from the media service's replay, as ReplayedMedia with their
 * text's version.
 */
export function replayedMedia(bus: EventBus, timeoutMs = 30_000): Pick<RebuildableReadModel<ReplayedMedia>, 'fetchPage' | 'fetchIds' | 'idOf'> {
  return {
    async fetchPage(afterId, limit) {
      const reply = await requestRpc(bus, MediaRpc.Replay, { afterId, limit }, { timeoutMs });
      return { rows: reply.media, total: Number(reply.total) };
    },
    async fetchIds(ids) {
      return (await requestRpc(bus, MediaRpc.Replay, { mediaIds: ids }, { timeoutMs })).media;
    },
    idOf: (media) => media.mediaId.toLowerCase(),
  };
}

/**
 * A moderation decision's id in a rebuild: `<subject_type>:<subject_id>` (the id lower-cased), in
 * byte order, as the social service pages its decisions and the copies list theirs (COLLATE "C").
 */
export const moderationKey = (subjectType: string, subjectId: string): string => `${subjectType}:${subjectId.toLowerCase()}`;

/** The subject of a moderation key; both parts empty for a key that is none. */
export function moderationSubjectOf(key: string): { subjectType: string; subjectId: string } {
  const at = key.indexOf(':');
  return at < 0 ? { subjectType: '', subjectId: '' } : { subjectType: key.slice(0, at), subjectId: key.slice(at + 1) };
}

/**
 * The producer's side of a moderation copy (timelines, notifications, search keep one): pages and
 * subjects from the social service's replay of the desk's standing decisions, of the kinds the copy
 * keeps, with their events' versions, keyed by moderationKey.
 */
export function replayedModeration(bus: EventBus, subjectTypes: readonly string[], timeoutMs = 30_000): Pick<RebuildableReadModel<ReplayedModerationDecision>, 'fetchPage' | 'fetchIds' | 'idOf'> {
  return {
    async fetchPage(afterId, limit) {
      const reply = await requestRpc(bus, SocialRpc.ReplayModeration, { ...(afterId ? { after: moderationSubjectOf(afterId) } : {}), limit, subjectTypes: [...subjectTypes] }, { timeoutMs });
      return { rows: reply.decisions, total: Number(reply.total) };
    },
    async fetchIds(ids) {
      return (await requestRpc(bus, SocialRpc.ReplayModeration, { subjects: ids.map(moderationSubjectOf), subjectTypes: [...subjectTypes] }, { timeoutMs })).decisions;
    },
    idOf: (decision) => moderationKey(decision.subject?.subjectType ?? '', decision.subject?.subjectId ?? ''),
  };
}

/**
 * The producer's side of the moderation copies' `account_deletion` rows: pages and ids from the
 * auth service's replay of the deletions pending now, with their AccountDeletionChanged version.
 */
export function replayedAccountDeletions(bus: EventBus, timeoutMs = 30_000): Pick<RebuildableReadModel<PendingAccountDeletion>, 'fetchPage' | 'fetchIds' | 'idOf'> {
  return {
    async fetchPage(afterId, limit) {
      const reply = await requestRpc(bus, AuthRpc.ReplayAccountDeletions, { afterId, limit }, { timeoutMs });
      return { rows: reply.deletions, total: Number(reply.total) };
    },
    async fetchIds(ids) {
      return (await requestRpc(bus, AuthRpc.ReplayAccountDeletions, { userIds: ids }, { timeoutMs })).deletions;
    },
    idOf: (deletion) => deletion.userId.toLowerCase(),
  };
}

/** The ids of a table of the copy after `afterId`, in id order: `localIds` of a model keyed by a uuid `id`. */
export async function idsAfter(manager: EntityManager, table: string, afterId: string, limit: number): Promise<string[]> {
  const rows = (await (afterId
    ? manager.query(`SELECT id FROM ${table} WHERE id > $1 ORDER BY id LIMIT $2`, [afterId, limit])
    : manager.query(`SELECT id FROM ${table} ORDER BY id LIMIT $1`, [limit]))) as Array<{ id: string }>;
  return rows.map((row) => row.id);
}
