import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';

export interface PasskeyRow {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface NewPasskey {
  userId: string;
  credentialId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: string[];
  name: string;
}

export interface TakenChallenge {
  challenge: string;
  userId: string | null;
}

type Row = { id: string; user_id: string; credential_id: string; public_key: Buffer; counter: string; transports: string; name: string; created_at: Date; last_used_at: Date | null };
const COLUMNS = 'id, user_id, credential_id, public_key, counter, transports, name, created_at, last_used_at';
const mapRow = (row: Row): PasskeyRow => ({
  id: row.id,
  userId: row.user_id,
  credentialId: row.credential_id,
  publicKey: new Uint8Array(row.public_key),
  counter: Number(row.counter),
  transports: row.transports ? row.transports.split(',') : [],
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

/** passkeys and webauthn_challenges. */
export class PasskeyRepository {
  constructor(private readonly dataSource: DataSource) {}

  async list(userId: string): Promise<PasskeyRow[]> {
    const rows: Row[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM passkeys WHERE user_id = $1 ORDER BY created_at, id`, [userId]);
    return rows.map(mapRow);
  }

  async byCredentialId(credentialId: string): Promise<PasskeyRow | undefined> {
    const rows: Row[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM passkeys WHERE credential_id = $1`, [credentialId]);
    return rows[0] && mapRow(rows[0]);
  }

  async count(userId: string): Promise<number> {
    const rows: Array<{ count: number }> = await this.dataSource.query('SELECT count(*)::int AS count FROM passkeys WHERE user_id = $1', [userId]);
    return rows[0]?.count ?? 0;
  }

  /** Answers the new row, or undefined when the credential is stored already. */
  async insert(passkey: NewPasskey): Promise<PasskeyRow | undefined> {
    const rows: Row[] = await this.dataSource.query(
      `INSERT INTO passkeys (id, user_id, credential_id, public_key, counter, transports, name) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (credential_id) DO NOTHING RETURNING ${COLUMNS}`,
      [randomUUID(), passkey.userId, passkey.credentialId, Buffer.from(passkey.publicKey), passkey.counter, passkey.transports.join(','), passkey.name],
    );
    return rows[0] && mapRow(rows[0]);
  }

  /** Someone else's passkey is as absent as a missing one. */
  async rename(userId: string, id: string, name: string): Promise<PasskeyRow | undefined> {
    const [rows]: [Row[], number] = await this.dataSource.query(`UPDATE passkeys SET name = $3 WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`, [id, userId, name]);
    return rows[0] && mapRow(rows[0]);
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const [, deleted]: [unknown, number] = await this.dataSource.query('DELETE FROM passkeys WHERE id = $1 AND user_id = $2', [id, userId]);
    return deleted > 0;
  }

  /** After a sign-in: the authenticator's new signature counter, and when. */
  async used(manager: EntityManager, id: string, counter: number): Promise<void> {
    await manager.query('UPDATE passkeys SET counter = $2, last_used_at = now() WHERE id = $1', [id, counter]);
  }

  async insertChallenge(challenge: { userId: string | null; purpose: string; challenge: string; expiresAt: Date }): Promise<string> {
    const id = randomUUID();
    await this.dataSource.query('INSERT INTO webauthn_challenges (id, user_id, purpose, challenge, expires_at) VALUES ($1, $2, $3, $4, $5)', [
      id,
      challenge.userId,
      challenge.purpose,
      challenge.challenge,
      challenge.expiresAt,
    ]);
    return id;
  }

  /** Takes a challenge once: the statement that finds it deletes it; an expired one is not found. */
  async takeChallenge(id: string, purpose: string): Promise<TakenChallenge | undefined> {
    const [rows]: [Array<{ challenge: string; user_id: string | null; expires_at: Date }>, number] = await this.dataSource.query(
      'DELETE FROM webauthn_challenges WHERE id = $1 AND purpose = $2 RETURNING challenge, user_id, expires_at',
      [id, purpose],
    );
    const row = rows[0];
    if (!row || row.expires_at.getTime() <= Date.now()) return undefined;
    return { challenge: row.challenge, userId: row.user_id };
  }

  async deleteExpiredChallenges(): Promise<void> {
    await this.dataSource.query('DELETE FROM webauthn_challenges WHERE expires_at < now()');
  }
}
