import { expect, it } from '@jest/globals';
import { mediaSchema } from '../src/index.js';
import { schemaContract } from '../../../test/support/schema-contract.js';

schemaContract(mediaSchema, ['avatars', 'data_exports', 'exports', 'inbox', 'media', 'migrations', 'outbox', 'outbox_erasures', 'person_limit_hits', 'storage_usage', 'upload_sessions', 'video_captions'], (ds) => {
  it('reads a timeline in order and finds expired sessions through indexes', async () => {
    const indexes: Array<{ indexname: string; indexdef: string }> = await ds().query(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'media' ORDER BY indexname`);
    const def = (name: string) => indexes.find((i) => i.indexname === name)?.indexdef;
    expect(def('media_timeline_position_idx')).toContain('(timeline_id, "position")');
    expect(def('upload_sessions_expires_idx')).toContain('(expires_at)');
    expect(def('upload_sessions_user_status_idx')).toContain('(user_id, status)');
  });
});
