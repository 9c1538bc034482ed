import { expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { socialSchema } from '../src/index.js';
import { isDeletedAccount, rememberDeletedAccount } from '../src/users/deleted-users.js';
import { schemaContract } from '../../../test/support/schema-contract.js';

schemaContract(socialSchema, [
  'account_suspensions', 'activities', 'blocks', 'collection_timelines', 'collections', 'comment_settings', 'content_reports', 'deleted_timelines', 'deleted_users', 'deleted_users_key', 'feed_inbox', 'feed_key_history', 'feed_timelines', 'follow_counts', 'follow_request_counts', 'follow_requests', 'follows', 'inbox', 'migrations', 'moderated_content', 'moderation_actions', 'moderation_appeals', 'moderation_hidden', 'muted_words', 'mutes', 'outbox', 'outbox_erasures',
  'post_bookmarks', 'post_comments', 'post_likes', 'posts', 'staff_roles', 'timeline_bookmarks', 'timeline_comments', 'timeline_likes',
  'timeline_reactions', 'users', 'video_comments', 'video_likes', 'videos',
], (ds) => {
  it("reads a timeline's comments newest first through the index", async () => {
    const indexes: Array<{ indexdef: string }> = await ds().query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'social' AND indexname = 'timeline_comments_timeline_created_idx'`);
    expect(indexes[0]?.indexdef).toContain('(timeline_id, created_at DESC, id DESC)');
  });

  it('remembers deleted accounts by a salted digest of the id: the ids remembered before are converted', async () => {
    // Back to before the digests (and the migrations after them), with an id remembered as it was kept then.
    const last = async () => (await ds().query('SELECT name FROM migrations ORDER BY id DESC LIMIT 1'))[0].name as string;
    expect(socialSchema.migrations.map((m) => m.name)).toContain('DeletedUserDigests1768100000100');
    while ((await last()) !== 'DeletedUserDigests1768100000100') await ds().undoLastMigration();
    await ds().undoLastMigration();
    const gone = randomUUID();
    await ds().query('INSERT INTO deleted_users (id) VALUES ($1)', [gone]);
    await ds().runMigrations();
    const columns: Array<{ column_name: string }> = await ds().query(`SELECT column_name FROM information_schema.columns WHERE table_schema = 'social' AND table_name = 'deleted_users' ORDER BY 1`);
    expect(columns.map((c) => c.column_name)).toEqual(['deleted_at', 'digest']);
    expect(await ds().query(`SELECT 1 FROM deleted_users t WHERE t::text ILIKE $1`, [`%${gone}%`])).toEqual([]);
    const manager = ds().manager;
    expect(await isDeletedAccount(manager, gone)).toBe(true);
    expect(await isDeletedAccount(manager, randomUUID())).toBe(false);
    const other = randomUUID();
    await rememberDeletedAccount(manager, other);
    await rememberDeletedAccount(manager, other);
    expect(await isDeletedAccount(manager, other.toUpperCase())).toBe(true);
    await ds().query('DELETE FROM deleted_users');
  });

  it('reads the for-you feed of public published timelines through a partial index', async () => {
    const indexes: Array<{ indexdef: string }> = await ds().query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'social' AND indexname = 'feed_timelines_feed_idx'`);
    expect(indexes[0]?.indexdef).toContain('(score_band DESC, last_activity_at DESC, id DESC) WHERE');
  });
});
