import type { DataSource, EntityManager } from 'typeorm';

/** What a person stores and has promised to uploads in progress (`storage_usage`, `upload_sessions`). */
export class StorageUsageRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Bytes stored (kept by a trigger on `media`) and bytes reserved by the person's active, unexpired resumable uploads. */
  async usage(userId: string, manager: EntityManager = this.dataSource.manager): Promise<{ usedBytes: number; reservedBytes: number }> {
    const [row] = (await manager.query(
      `SELECT coalesce((SELECT bytes FROM storage_usage WHERE user_id = $1), 0)::bigint AS used,
              coalesce((SELECT sum(total_size) FROM upload_sessions WHERE user_id = $1 AND status = 'active' AND expires_at > now()), 0)::bigint AS reserved`,
      [userId],
    )) as Array<{ used: string; reserved: string }>;
    return { usedBytes: Number(row!.used), reservedBytes: Number(row!.reserved) };
  }

  /** One decision about the person's space at a time, until `manager`'s transaction ends. */
  async lockPerson(manager: EntityManager, userId: string): Promise<void> {
    if (!manager.queryRunner?.isTransactionActive) throw new Error('StorageQuota.claim must run inside a transaction');
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`storage-quota:${userId}`]);
  }
}
