import { expect, it } from '@jest/globals';
import { socialSchema } from '../src/index.js';
import { schemaContract } from '../../../test/support/schema-contract.js';

schemaContract(socialSchema, [
  'activities', 'collection_timelines', 'collections', 'content_reports', 'deleted_timelines', 'feed_inbox', 'feed_key_history', 'feed_timelines', 'follow_counts', 'follows', 'inbox', 'migrations', 'outbox',
  'post_bookmarks', 'post_comments', 'post_likes', 'posts', 'timeline_bookmarks', 'timeline_comments', 'timeline_likes',
  'timeline_reactions', 'users', 'video_comments', 'video_likes', 'videos',
], (ds) => {
  it("reads a timeline's comments newest first through the index", async () => {
    const indexes: Array<{ indexdef: string }> = await ds().query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'social' AND indexname = 'timeline_comments_timeline_created_idx'`);
    expect(indexes[0]?.indexdef).toContain('(timeline_id, created_at DESC, id DESC)');
  });

  it('reads the for-you feed of public published timelines through a partial index', async () => {
    const indexes: Array<{ indexdef: string }> = await ds().query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'social' AND indexname = 'feed_timelines_feed_idx'`);
    expect(indexes[0]?.indexdef).toContain('(score_band DESC, last_activity_at DESC, id DESC) WHERE');
  });
});
