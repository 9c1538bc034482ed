import { expect, it } from '@jest/globals';
import { timelinesSchema } from '../src/index.js';
import { schemaContract } from '../../../test/support/schema-contract.js';

schemaContract(timelinesSchema, [
  'account_follows', 'collaborators', 'inbox', 'invitations', 'media_alt_texts', 'migrations', 'moderation_hidden', 'muted_word_lists', 'muted_words', 'outbox', 'outbox_erasures', 'person_filters', 'person_limit_hits', 'timeline_engagements', 'timeline_images', 'timeline_videos',
  'timeline_views', 'timelines', 'users', 'watch_positions',
], (ds) => {
  it('keeps is_public in step with visibility', async () => {
    const insert = (visibility: string, isPublic: boolean) =>
      ds().query(`INSERT INTO timelines (id, title, creator_id, creator_name, visibility, is_public) VALUES (gen_random_uuid(), 't', gen_random_uuid(), 'x', $1, $2)`, [visibility, isPublic]);
    await expect(insert('private', true)).rejects.toThrow(/timelines_is_public_check/);
    await expect(insert('public', false)).rejects.toThrow(/timelines_is_public_check/);
    await expect(insert('secret', false)).rejects.toThrow(/timelines_visibility_check/);
    await insert('public', true);
    const [row] = await ds().query(`SELECT visibility, status, content_freshness FROM timelines`);
    expect(row).toEqual({ visibility: 'public', status: 'draft', content_freshness: 'new' });
    await ds().query('DELETE FROM timelines');
  });
});
