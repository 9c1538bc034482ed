import { expect, it } from '@jest/globals';
import { searchSchema } from '../src/index.js';
import { schemaContract } from '../../../test/support/schema-contract.js';

schemaContract(searchSchema, [
  'deleted_timelines', 'hashtag_uses', 'hashtags', 'inbox', 'migrations', 'outbox', 'search_history', 'search_words', 'tagged_posts', 'timeline_engagement', 'timelines', 'users',
], (ds) => {
  it('matches listed timelines through a partial GIN index on the document', async () => {
    const indexes: Array<{ indexdef: string }> = await ds().query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'search' AND indexname = 'timelines_document_idx'`);
    expect(indexes[0]?.indexdef).toMatch(/USING gin \(document\) WHERE listed/);
  });

  it('normalizes text without accents or case, in index expressions', async () => {
    expect(await ds().query(`SELECT search.normalized('Crème BRÛLÉE Straße') AS n`)).toEqual([{ n: 'creme brulee strasse' }]);
  });
});
