import { type Timestamp, timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { DataSource } from 'typeorm';

export interface VerifiedSession {
  valid: boolean;
  userId: string;
  sessionId: string;
  expiresAt?: Timestamp;
}

const INVALID: VerifiedSession = { valid: false, userId: '', sessionId: '' };

/** Touching `last_used_at` on every request would turn reads into writes; once in a while is enough. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

/**
 * Answers the gateway's "who holds this token?" question. Given only the token's hash, so the
 * token itself never crosses the bus.
 */
export class SessionVerifier {
  constructor(private readonly dataSource: DataSource) {}

  async verify(tokenHash: string): Promise<VerifiedSession> {
    if (!/^[0-9a-f]{64}$/.test(tokenHash)) return INVALID;
    const rows: Array<{ id: string; user_id: string; expires_at: Date; last_used_at: Date | null }> = await this.dataSource.query(
      `SELECT id, user_id, expires_at, last_used_at FROM sessions
        WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()`,
      [tokenHash],
    );
    const row = rows[0];
    if (!row) return INVALID;
    if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > TOUCH_EVERY_MS) {
      await this.dataSource.query('UPDATE sessions SET last_used_at = now() WHERE id = $1', [row.id]);
    }
    return { valid: true, userId: row.user_id, sessionId: row.id, expiresAt: timestampFromDate(row.expires_at) };
  }

  /** Expired and long-revoked sessions are deleted daily-ish by the service. */
  async prune(): Promise<number> {
    const result: [unknown[], number] = await this.dataSource.query(
      `DELETE FROM sessions WHERE expires_at < now() - interval '1 day' OR revoked_at < now() - interval '1 day'`,
    );
    return result[1] ?? 0;
  }
}
