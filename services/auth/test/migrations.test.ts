import { authSchema } from '../src/index.js';
import { schemaContract } from '../../../test/support/schema-contract.js';

schemaContract(authSchema, [
  'account_deletions', 'account_suspensions', 'email_changes', 'inbox', 'like_targets', 'migrations', 'muted_word_lists', 'muted_words', 'outbox', 'outbox_erasures', 'passkeys', 'password_resets', 'pending_sign_ins', 'person_filters', 'profile_timelines', 'purged_accounts', 'rate_limits',
  'recovery_codes', 'sessions', 'totp_factors', 'users', 'viewing_preferences', 'webauthn_challenges',
]);
