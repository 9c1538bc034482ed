import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** How a person wants to see what others post; a person without a row has the defaults. */
@Entity({ name: 'viewing_preferences' })
export class ViewingPreference {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_viewing_preferences' })
  userId: string;

  /** "Always show sensitive media": no blurred cover before what is marked sensitive. */
  @Column({ type: 'boolean', default: false })
  alwaysShowSensitive: boolean;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
