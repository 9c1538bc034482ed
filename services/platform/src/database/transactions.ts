import type { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { defaultBusLogger } from '../bus/bus-logger.js';

/**
 * Transactions, and work that waits for one to commit. The one way for a service:
 *
 *   constructor(private readonly transactions: Transactions, private readonly posts: PostRepository, private readonly events: EventWriter) {}
 *
 *   const post = await this.transactions.run(async (manager) => {
 *     const post = await this.posts.insert(manager, draft);
 *     await this.events.add(manager, SocialEvents.PostCreated, { postId: post.id }, context);
 *     return post;
 *   });
 *
 * The service hands `manager` to repositories and to the event writer; it runs no SQL itself.
 * Nothing is called after the commit by hand: `events.add` has already asked for the outbox relay
 * to be nudged once the transaction commits (`afterCommit`), so the event goes out at once rather
 * than at the relay's next poll. Code with other work of that kind (refreshing an in-process
 * cache once the change is visible) asks for it the same way:
 *
 *   afterCommit(manager, () => cache.forget(timelineId));
 *
 * After-commit work is only ever a nudge or a refresh, never part of the change: it runs once the
 * transaction has committed (never when it rolls back), is not awaited, and its failure is logged,
 * never thrown into the code that committed; if the process stops first it does not run at all.
 * Work registered inside a savepoint that is later rolled back still runs after the outer commit,
 * so it must be harmless to run for nothing.
 *
 * An event handler's transaction (`consumeEvents`) is a transaction like any other: its `manager`
 * takes `afterCommit` too, and `meta.afterCommit(fn)` is the same thing.
 */
export class Transactions {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in a transaction: committed when it resolves, rolled back when it throws. */
  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return inTransaction(this.dataSource, work);
  }
}

/** `Transactions.run` for code that holds the DataSource itself (repositories, workers, wiring). */
export function inTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  return dataSource.transaction(work);
}

type Hook = () => void | Promise<void>;

/**
 * Runs `fn` once the transaction `manager` belongs to has committed; at once when `manager` is in
 * no transaction. The same `fn` asked for twice in one transaction runs once.
 */
export function afterCommit(manager: EntityManager, fn: Hook): void {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) {
    runHooks([fn]);
    return;
  }
  AfterCommitHooks.of(manager.dataSource).add(runner, fn);
}

/** The hooks waiting for each open transaction of one DataSource, told of commits as its subscriber. */
class AfterCommitHooks implements EntitySubscriberInterface {
  private static readonly installed = new WeakMap<DataSource, AfterCommitHooks>();
  private readonly pending = new WeakMap<QueryRunner, Hook[]>();

  static of(dataSource: DataSource): AfterCommitHooks {
    let hooks = AfterCommitHooks.installed.get(dataSource);
    if (!hooks) {
      hooks = new AfterCommitHooks();
      (dataSource.subscribers as EntitySubscriberInterface[]).push(hooks);
      AfterCommitHooks.installed.set(dataSource, hooks);
    }
    return hooks;
  }

  add(runner: QueryRunner, fn: Hook): void {
    const hooks = this.pending.get(runner);
    if (!hooks) this.pending.set(runner, [fn]);
    else if (!hooks.includes(fn)) hooks.push(fn);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    // A released savepoint also reports a commit: wait for the outermost one.
    if (event.queryRunner.isTransactionActive) return;
    const hooks = this.pending.get(event.queryRunner);
    if (!hooks) return;
    this.pending.delete(event.queryRunner);
    runHooks(hooks);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    // A savepoint rolled back: the transaction goes on.
    if (event.queryRunner.isTransactionActive) return;
    this.pending.delete(event.queryRunner);
  }
}

function runHooks(hooks: Hook[]): void {
  for (const hook of hooks) {
    try {
      Promise.resolve(hook()).catch(warn);
    } catch (error) {
      warn(error);
    }
  }
}

const warn = (error: unknown): void => defaultBusLogger.warn({ err: error }, 'work after commit failed');
