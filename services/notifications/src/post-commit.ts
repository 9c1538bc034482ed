import type { Logger } from '@timeliner/platform';
import type { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';

type Task = () => Promise<void>;

/**
 * Work that waits until a transaction has committed: nudging the outbox relay so the events the
 * transaction wrote go out at once. Only ever an optimisation: a task that never runs (the
 * process stopped) loses nothing, the relay finds the events on its next pass. Registered on the
 * DataSource as a subscriber; tasks of a rolled-back transaction are dropped. A task's failure is
 * logged, never thrown into the code that committed.
 */
export class PostCommit implements EntitySubscriberInterface {
  private readonly pending = new WeakMap<QueryRunner, Task[]>();

  private constructor(private readonly logger: Logger) {}

  static install(dataSource: DataSource, logger: Logger): PostCommit {
    const postCommit = new PostCommit(logger);
    (dataSource.subscribers as EntitySubscriberInterface[]).push(postCommit);
    return postCommit;
  }

  /** Runs `task` after the manager's transaction commits (at once when there is none). */
  add(manager: EntityManager, task: Task): void {
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive) {
      this.run([task]);
      return;
    }
    const tasks = this.pending.get(runner);
    if (!tasks) this.pending.set(runner, [task]);
    // One nudge per transaction is enough.
    else if (!tasks.includes(task)) tasks.push(task);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const tasks = this.pending.get(event.queryRunner);
    if (!tasks) return;
    this.pending.delete(event.queryRunner);
    this.run(tasks);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    this.pending.delete(event.queryRunner);
  }

  private run(tasks: Task[]): void {
    for (const task of tasks) {
      task().catch((error: unknown) => this.logger.warn({ err: error }, 'work after commit failed'));
    }
  }
}
