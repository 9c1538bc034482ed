import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A person's choice for one type of notification; no row means both on. */
@Entity({ name: 'preferences' })
export class Preference {
  @PrimaryColumn('uuid')
  userId: string;

  @PrimaryColumn({ type: 'varchar', length: 20 })
  type: string;

  @Column('boolean')
  inApp: boolean;

  @Column('boolean')
  push: boolean;
}
