import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A signed-in person's recent searches (spec 001: search_history userId, query, resultType, resultId). */
@Entity({ name: 'search_history' })
@Index('search_history_user_query_idx', ['userId', 'normalizedQuery'], { unique: true })
@Index('search_history_user_searched_idx', ['userId', 'searchedAt'])
export class SearchHistoryEntry {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  userId: string;

  @Column({ type: 'varchar', length: 200 })
  query: string;

  /** Lower-case, spaces collapsed: one entry per query however it was typed. */
  @Column({ type: 'varchar', length: 200 })
  normalizedQuery: string;

  /** The result opened from this search, when the app reported one. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  resultType: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  resultId: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  searchedAt: Date;
}
