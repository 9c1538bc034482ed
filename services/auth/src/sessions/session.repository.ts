import { randomUUID } from 'node:crypto';
import { clipCodeUnits } from '@timeliner/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { Session } from './session.entity.js';

/** A session a token still opens: not revoked, not expired. */
export interface OpenSession {
  id: string;
  userId: string;
  expiresAt: Date;
  lastUsedAt: Date | null;
}

/** One of a person's open sessions, as their list shows it. */
export interface SessionRow {
  id: string;
  userAgent: string | null;
  createdIp: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface NewSession {
  userId: string;
  tokenHash: string;
  expiresAt: Date;
  /** Cut to the column's length here. */
  createdIp: string;
  userAgent: string | undefined;
}

export interface RevokeWhich {
  userId: string;
  /** Only this session. */
  sessionId?: string;
  /** Every session but this one (the caller's own). */
  exceptSessionId?: string;
}

/** A session just ended: what its announcement carries. */
export interface RevokedSession {
  id: string;
  tokenHash: string;
}

const ipColumn = (ip: string) => clipCodeUnits(ip, 64);
const userAgentColumn = (userAgent: string | undefined) => (userAgent === undefined ? null : clipCodeUnits(userAgent, 300));

/** sessions: signed-in devices, found by the hash of their token. */
export class SessionRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findOpenByTokenHash(tokenHash: string): Promise<OpenSession | undefined> {
    const rows: Array<{ id: string; user_id: string; expires_at: Date; last_used_at: Date | null }> = await this.dataSource.query(
      `SELECT id, user_id, expires_at, last_used_at FROM sessions
        WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()`,
      [tokenHash],
    );
    const row = rows[0];
    return row && { id: row.id, userId: row.user_id, expiresAt: row.expires_at, lastUsedAt: row.last_used_at };
  }

  async touch(sessionId: string): Promise<void> {
    await this.dataSource.query('UPDATE sessions SET last_used_at = now() WHERE id = $1', [sessionId]);
  }

  /** Deletes sessions expired or revoked more than a day ago; answers how many. */
  async deleteStale(): Promise<number> {
    const result: [unknown[], number] = await this.dataSource.query(
      `DELETE FROM sessions WHERE expires_at < now() - interval '1 day' OR revoked_at < now() - interval '1 day'`,
    );
    return result[1] ?? 0;
  }

  /** A person's open sessions, `firstId` first, then the most recently used. */
  async listOpen(userId: string, firstId: string): Promise<SessionRow[]> {
    const rows: Array<{ id: string; user_agent: string | null; created_ip: string | null; created_at: Date; last_used_at: Date | null }> = await this.dataSource.query(
      `SELECT id, user_agent, created_ip, created_at, last_used_at FROM sessions
        WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()
        ORDER BY (id = $2) DESC, coalesce(last_used_at, created_at) DESC, id`,
      [userId, firstId],
    );
    return rows.map((row) => ({ id: row.id, userAgent: row.user_agent, createdIp: row.created_ip, createdAt: row.created_at, lastUsedAt: row.last_used_at }));
  }

  /** Whether the person has signed in from this address and browser before (one of their sessions, ended or not). */
  async existsFromDevice(userId: string, ip: string, userAgent: string | undefined): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM sessions WHERE user_id = $1 AND created_ip = $2 AND user_agent IS NOT DISTINCT FROM $3 LIMIT 1`,
      [userId, ipColumn(ip), userAgentColumn(userAgent)],
    );
    return rows.length > 0;
  }

  async insert(manager: EntityManager, session: NewSession): Promise<void> {
    await manager.insert(Session, {
      id: randomUUID(),
      userId: session.userId,
      tokenHash: session.tokenHash,
      expiresAt: session.expiresAt,
      revokedAt: null,
      lastUsedAt: new Date(),
      createdIp: ipColumn(session.createdIp),
      userAgent: userAgentColumn(session.userAgent),
    });
  }

  /** Whether this open session is the person's. */
  async isOpen(manager: EntityManager, sessionId: string, userId: string): Promise<boolean> {
    const rows: unknown[] = await manager.query('SELECT id FROM sessions WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND expires_at > now()', [sessionId, userId]);
    return rows.length > 0;
  }

  /** Ends sessions of one person that are not ended yet; answers those it ended. */
  async revoke(manager: EntityManager, which: RevokeWhich): Promise<RevokedSession[]> {
    const params: unknown[] = [which.userId];
    let filter = '';
    if (which.sessionId) {
      params.push(which.sessionId);
      filter = ` AND id = $${params.length}`;
    } else if (which.exceptSessionId) {
      params.push(which.exceptSessionId);
      filter = ` AND id <> $${params.length}`;
    }
    const [rows]: [Array<{ id: string; token_hash: string }>, number] = await manager.query(
      `UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL${filter} RETURNING id, token_hash`,
      params,
    );
    return rows.map((row) => ({ id: row.id, tokenHash: row.token_hash }));
  }
}
