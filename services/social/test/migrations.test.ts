import { expect, it } from '@jest/globals';
import { socialSchema } from '../src/index.js';
import { schemaContract } from '../../../test/support/schema-contract.js';

schemaContract(socialSchema, ['inbox', 'migrations', 'outbox', 'timeline_comments', 'users'], (ds) => {
  it("reads a timeline's comments newest first through the index", async () => {
    const indexes: Array<{ indexdef: string }> = await ds().query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'social' AND indexname = 'timeline_comments_timeline_created_idx'`);
    expect(indexes[0]?.indexdef).toContain('(timeline_id, created_at DESC, id DESC)');
  });
});
