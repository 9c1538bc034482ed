import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Fixed-window counters for login and registration limits, shared by every replica. */
@Entity({ name: 'rate_limits' })
export class RateLimitCounter {
  @PrimaryColumn({ type: 'varchar', length: 300 })
  key: string;

  @Column({ type: 'timestamptz' })
  windowStart: Date;

  @Column({ type: 'integer' })
  count: number;
}
