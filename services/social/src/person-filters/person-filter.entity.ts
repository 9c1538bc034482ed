import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Someone blocked someone: from then on neither sees the other anywhere (read-rules/person-filter-sql.ts),
 * and neither can follow, comment on, like or mention the other.
 */
@Entity({ name: 'blocks' })
@Index('blocks_blocked_idx', ['blockedId', 'blockerId'])
@Index('blocks_list_idx', ['blockerId', 'createdAt', 'blockedId'])
export class Block {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_blocks' })
  blockerId: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_blocks' })
  blockedId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/** Someone muted an account: its posts and timelines leave their feeds; the account is never told. */
@Entity({ name: 'mutes' })
@Index('mutes_list_idx', ['muterId', 'createdAt', 'mutedId'])
export class Mute {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_mutes' })
  muterId: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_mutes' })
  mutedId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/** A muted word or hashtag of one person, until `expiresAt` (null: until removed). */
@Entity({ name: 'muted_words' })
@Index('muted_words_user_word_key', ['userId', 'word'], { unique: true })
export class MutedWord {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_muted_words' })
  id: string;

  @Column('uuid')
  userId: string;

  /** Lower-case; a hashtag keeps its '#'. */
  @Column({ type: 'varchar', length: 100 })
  word: string;

  /** The case-insensitive regular expression that finds the word as a whole word (read-rules/person-filter-sql.ts). */
  @Column({ type: 'varchar', length: 600 })
  pattern: string;

  @Column({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
