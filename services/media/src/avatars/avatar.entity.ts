import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A person's current profile picture: one square JPEG in storage, replaced as a whole. */
@Entity({ name: 'avatars' })
export class Avatar {
  /** The person (auth's user id); their own uploads only. */
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  /** Grows with every upload; the `?v=` of the avatar's URL, so a new picture is a new URL. */
  @Column({ type: 'bigint', transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) } })
  version: number;

  @Column({ name: 'object_key', type: 'varchar', length: 200 })
  objectKey: string;

  @Column({ type: 'integer' })
  size: number;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
