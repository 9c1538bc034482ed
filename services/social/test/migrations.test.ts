import { expect, it } from '@jest/globals';
import { socialSchema } from '../src/index.js';
import { schemaContract } from '../../../test/support/schema-contract.js';

schemaContract(socialSchema, [
  'account_suspensions', 'activities', 'blocks', 'collection_timelines', 'collections', 'comment_settings', 'content_reports', 'deleted_timelines', 'deleted_users', 'feed_inbox', 'feed_key_history', 'feed_timelines', 'follow_counts', 'follow_request_counts', 'follow_requests', 'follows', 'inbox', 'migrations', 'moderated_content', 'moderation_actions', 'moderation_appeals', 'muted_words', 'mutes', 'outbox',
  'post_bookmarks', 'post_comments', 'post_likes', 'posts', 'staff_roles', 'timeline_bookmarks', 'timeline_comments', 'timeline_likes',
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
