import { expect, it } from '@jest/globals';
import { searchSchema } from '../src/index.js';
import { schemaContract } from '../../../test/support/schema-contract.js';

schemaContract(searchSchema, [
  'caption_cues', 'caption_tracks', 'deleted_timelines', 'hashtag_uses', 'hashtags', 'inbox', 'migrations', 'moderation_hidden', 'muted_word_lists', 'muted_words', 'outbox', 'person_filters', 'search_history', 'search_word_edits', 'search_words',
  'tagged_posts', 'timeline_engagement', 'timelines', 'users',
], (ds) => {
  it('matches listed timelines through a partial GIN index on the document', async () => {
    const indexes: Array<{ indexdef: string }> = await ds().query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'search' AND indexname = 'timelines_document_idx'`);
    expect(indexes[0]?.indexdef).toMatch(/USING gin \(document\) WHERE listed/);
  });

  it('normalizes text without accents or case, in index expressions', async () => {
    expect(await ds().query(`SELECT search.normalized('Crème BRÛLÉE Straße') AS n`)).toEqual([{ n: 'creme brulee strasse' }]);
  });
});
