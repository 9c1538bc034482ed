import pg from 'pg';

type Callback = (error: Error | null, result?: unknown) => void;
type QueryConfig = { text: string; name?: string; values?: unknown[] };
type Query = (config: unknown, values?: unknown) => Promise<unknown>;

const OPENS = /^\s*(START\s+TRANSACTION|BEGIN)\b/i;
const ENDS = /^\s*(COMMIT|END|ROLLBACK|ABORT)\s*;?\s*$/i;

/**
 * A `pg` client for a pooler in transaction mode (PgBouncer's `pool_mode = transaction`, CNPG's
 * Pooler), where each transaction may run on another server connection and a session's settings
 * stay behind on the one they were made on, for somebody else.
 *
 * The service's schema cannot come as a startup option (`-c search_path=...`: PgBouncer before
 * 1.20 refuses the connection), so every transaction sets it for itself with `SET LOCAL`: a
 * transaction the code opens gets it right after `START TRANSACTION`; a statement sent on its own
 * runs inside `BEGIN; SET LOCAL ...` and `COMMIT` (two round trips more, on the pooler's side of
 * the network). Nothing else of the session is relied on: prepared statements are unnamed
 * (prepared.ts), advisory locks are transaction locks held by an open transaction (database.ts,
 * read-model-rebuild.ts), and no service uses LISTEN.
 */
export function transactionPooledClient(schema: string): typeof pg.Client {
  const setPath = `SET LOCAL search_path TO "${schema}"`;
  class TransactionPooledClient extends pg.Client {
    private inTransaction = false;

    override query(config: unknown, values?: unknown, callback?: unknown): never {
      if (typeof values === 'function') {
        callback = values;
        values = undefined;
      }
      const text = typeof config === 'string' ? config : (config as QueryConfig | undefined)?.text;
      const submittable = typeof (config as { submit?: unknown } | undefined)?.submit === 'function';
      const plain = super.query.bind(this) as unknown as Query;
      if (submittable || typeof text !== 'string') return (super.query as (...args: unknown[]) => never)(config, ...(values === undefined ? [] : [values]), ...(callback ? [callback] : []));
      const result = this.run(plain, config, values, text);
      if (typeof callback === 'function') {
        result.then(
          (r) => (callback as Callback)(null, r),
          (e: Error) => (callback as Callback)(e),
        );
        return undefined as never;
      }
      return result as never;
    }

    private async run(query: Query, config: unknown, values: unknown, text: string): Promise<unknown> {
      if (OPENS.test(text)) {
        const opened = await query(config, values);
        this.inTransaction = true;
        await query(setPath);
        return opened;
      }
      if (this.inTransaction) {
        if (ENDS.test(text)) this.inTransaction = false;
        return query(config, values);
      }
      await query(`BEGIN; ${setPath}`);
      let result: unknown;
      try {
        result = await query(config, values);
      } catch (error) {
        await query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      await query('COMMIT');
      return result;
    }
  }
  return TransactionPooledClient as unknown as typeof pg.Client;
}
