import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Bytes each person has stored: the originals they uploaded plus what processing made of them
 * (renditions, thumbnails), until deleted. Kept by a trigger on `media` (migration
 * 1765400000000), so every path that inserts, measures or deletes media keeps it right and
 * reading it is one row, never a scan.
 */
@Entity({ name: 'storage_usage' })
export class StorageUsage {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'storage_usage_pkey' })
  userId: string;

  @Column({ type: 'bigint', default: 0, transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) } })
  bytes: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
