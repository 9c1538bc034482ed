import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Who follows whom, kept from the social service's FollowChanged events, for one rule only: a
 * private account's timelines are seen by its approved followers (private-accounts.ts). An
 * unfollow keeps the row with `active` false, so a follow retried after it (an older version)
 * never brings it back.
 */
@Entity({ name: 'account_follows' })
export class AccountFollow {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'account_follows_pkey' })
  followeeId: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'account_follows_pkey' })
  followerId: string;

  @Column({ type: 'boolean' })
  active: boolean;

  /** FollowChanged.followers_version of the change applied. */
  @Column({ type: 'bigint' })
  version: string;
}
