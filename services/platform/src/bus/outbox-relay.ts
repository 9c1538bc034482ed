import { type DataSource, In, LessThan } from 'typeorm';
import { type BusLogger, defaultBusLogger } from './bus-logger.js';
import type { EventBus } from './event-bus.port.js';
import { outboxEventToMessage } from './outbox.js';
import { eraseDispatched } from './outbox-erasure.js';
import { OutboxEvent } from './outbox.entity.js';

export interface OutboxRelayOptions {
  logger?: BusLogger;
  /** How often the outbox is checked when nobody kicks the relay; default 250 ms. */
  pollIntervalMs?: number;
  /** Pause after a failed publish (NATS down) before trying again; default 1 s. */
  retryDelayMs?: number;
  batchSize?: number;
  /** Dispatched rows are deleted after this long; default 1 day. The stream keeps the events. */
  retainDispatchedMs?: number;
}

/**
 * Publishes outbox rows and marks them dispatched. Safe with many replicas: each batch is
 * claimed with FOR UPDATE SKIP LOCKED, so replicas never send the same row at the same time.
 *
 * A crash between publish and the dispatched mark sends the row again on the next pass; the
 * event id is the Nats-Msg-Id, so JetStream drops the re-send within its duplicate window, and
 * consumers' inboxes drop anything later. On start every undispatched row is sent: that is how
 * nothing is lost when the process or NATS died after the commit.
 */
export class OutboxRelay {
  private readonly logger: BusLogger;
  private readonly pollIntervalMs: number;
  private readonly retryDelayMs: number;
  private readonly batchSize: number;
  private readonly retainDispatchedMs: number;

  private loop?: Promise<void>;
  private stopped = false;
  private kicked = false;
  private wake?: () => void;
  private lastPrune = 0;
  /** Whether this database has `outbox_erasures` (services' migrations add it; a bare outbox has none). */
  private erasures?: boolean;
  private erasureFailing = false;
  private passes = 0;
  private failedPasses = 0;
  private outageStartedAt = 0;
  private outageError: unknown;
  /** Waiters for an empty pass that started after they asked (an earlier pass may have missed rows). */
  private readonly idleWaiters: Array<{ afterPass: number; resolve: () => void }> = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: EventBus,
    options: OutboxRelayOptions = {},
  ) {
    this.logger = options.logger ?? defaultBusLogger;
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.retryDelayMs = options.retryDelayMs ?? 1_000;
    this.batchSize = options.batchSize ?? 100;
    this.retainDispatchedMs = options.retainDispatchedMs ?? 24 * 3600_000;
  }

  start(): void {
    if (this.loop) return;
    this.stopped = false;
    this.loop = this.run();
  }

  /** Publish now rather than at the next poll; call it after committing a transaction with events. */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  /** Resolves once a pass has found the outbox empty (for tests and orderly shutdown). */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push({ afterPass: this.passes, resolve });
      this.kick();
    });
  }

  /** Finishes the batch in progress, then stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.kicked = false;
      let pause = this.pollIntervalMs;
      let failed = false;
      try {
        const pass = ++this.passes;
        const outcome = await this.dispatchBatch();
        if (outcome === 'failed') failed = true;
        else {
          this.recovered();
          if (outcome === 'more') continue;
          this.releaseIdleWaiters(pass);
          await this.eraseDeletedPeople();
          await this.pruneDispatched();
        }
      } catch (error) {
        this.outageError ??= error;
        failed = true;
      }
      if (failed) pause = this.failedPass();
      if (!this.kicked || failed) await this.sleep(pause);
    }
    this.releaseIdleWaiters(Infinity);
  }

  /**
   * A pass failed (the database or NATS is unavailable): the pause before the next one, doubling
   * from retryDelayMs to 30 s. The outage is logged when it starts and when it ends, with how
   * many passes failed, never once per pass.
   */
  private failedPass(): number {
    this.failedPasses++;
    if (this.failedPasses === 1) {
      this.outageStartedAt = Date.now();
      this.logger.warn({ err: this.outageError }, 'Outbox relay cannot publish (database or bus unavailable); events stay in the outbox and are retried');
    }
    this.outageError = undefined;
    return Math.min(30_000, this.retryDelayMs * 2 ** Math.min(this.failedPasses - 1, 16));
  }

  private recovered(): void {
    if (this.failedPasses === 0) return;
    this.logger.info({ failedPasses: this.failedPasses, seconds: (Date.now() - this.outageStartedAt) / 1000 }, 'Outbox relay publishing again');
    this.failedPasses = 0;
  }

  private dispatchBatch(): Promise<'more' | 'empty' | 'failed'> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await manager
        .createQueryBuilder(OutboxEvent, 'event')
        .where('event.dispatchedAt IS NULL')
        .orderBy('event.position', 'ASC')
        .limit(this.batchSize)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      if (rows.length === 0) return 'empty';

      // Sent in order on one connection; acknowledgements awaited together.
      const results = await Promise.allSettled(rows.map((row) => this.bus.publish(outboxEventToMessage(row))));
      const sent = rows.filter((_, i) => results[i]!.status === 'fulfilled').map((row) => row.id);
      const failed = rows.filter((_, i) => results[i]!.status === 'rejected');
      if (sent.length > 0) {
        await manager.update(OutboxEvent, { id: In(sent) }, { dispatchedAt: () => 'now()' });
      }
      if (failed.length > 0) {
        await manager.increment(OutboxEvent, { id: In(failed.map((row) => row.id)) }, 'attempts', 1);
        const firstError = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
        this.outageError = firstError.reason;
        this.logger.debug({ failed: failed.length, sent: sent.length, firstEventId: failed[0]!.id, err: firstError.reason }, 'Outbox publish failed; will retry');
        return 'failed';
      }
      this.logger.debug({ sent: sent.length }, 'Outbox events published');
      return rows.length === this.batchSize ? 'more' : 'empty';
    });
  }

  private async pruneDispatched(): Promise<void> {
    if (Date.now() - this.lastPrune < Math.min(3600_000, this.retainDispatchedMs)) return;
    this.lastPrune = Date.now();
    await this.dataSource.manager.delete(OutboxEvent, {
      dispatchedAt: LessThan(new Date(Date.now() - this.retainDispatchedMs)),
    });
  }

  /**
   * The dispatched rows naming people whose accounts were deleted go now rather than after the
   * retention (outbox-erasure.ts); run after a pass that found nothing to send, so that what the
   * deletion itself caused has gone out first. A failure here is logged and tried again on the
   * next pass: it never holds up sending.
   */
  private async eraseDeletedPeople(): Promise<void> {
    try {
      if (this.erasures === undefined) {
        const [found] = (await this.dataSource.query(`SELECT to_regclass('outbox_erasures') IS NOT NULL AS present`)) as Array<{ present: boolean }>;
        this.erasures = found?.present === true;
      }
      if (!this.erasures) return;
      const erased = await eraseDispatched(this.dataSource.manager);
      if (erased > 0) this.logger.debug({ erased }, 'Outbox rows naming deleted people erased');
      this.erasureFailing = false;
    } catch (error) {
      // Once per run of failures, not once per pass.
      if (this.erasureFailing) return;
      this.erasureFailing = true;
      this.logger.warn({ err: error }, 'Outbox rows naming deleted people not erased yet; trying again on the next pass');
    }
  }

  /** Waits `ms`, or less when kicked or stopped. */
  private async sleep(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = undefined;
  }

  private releaseIdleWaiters(emptyPass: number): void {
    for (let i = this.idleWaiters.length - 1; i >= 0; i--) {
      const waiter = this.idleWaiters[i]!;
      if (waiter.afterPass < emptyPass) {
        this.idleWaiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }
}
