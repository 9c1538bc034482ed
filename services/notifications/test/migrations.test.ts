import { expect, it } from '@jest/globals';
import { notificationsSchema } from '../src/index.js';
import { schemaContract } from '../../../test/support/schema-contract.js';

schemaContract(notificationsSchema, [
  'inbox', 'migrations', 'moderation_hidden', 'muted_word_lists', 'muted_words', 'notification_activities', 'notifications', 'outbox', 'outbox_erasures', 'person_filters', 'preferences', 'push_subscriptions', 'reaction_states', 'timeline_member_removals', 'timeline_members', 'timelines',
  'told_once_a_day', 'tombstones', 'users', 'videos',
], (ds) => {
  it('counts unread notifications through a partial index', async () => {
    const indexes: Array<{ indexdef: string }> = await ds().query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'notifications' AND indexname = 'notifications_unread_idx'`);
    expect(indexes[0]?.indexdef).toContain('(recipient_id) WHERE (read_at IS NULL)');
  });

  it('keeps one activity per recipient and cause', async () => {
    const indexes: Array<{ indexdef: string }> = await ds().query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'notifications' AND indexname = 'notification_activities_source_idx'`);
    expect(indexes[0]?.indexdef).toMatch(/^CREATE UNIQUE INDEX .*\(recipient_id, source_key\)/);
  });
});
