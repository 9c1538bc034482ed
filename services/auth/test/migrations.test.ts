import { authSchema } from '../src/index.js';
import { schemaContract } from '../../../test/support/schema-contract.js';

schemaContract(authSchema, ['inbox', 'like_targets', 'migrations', 'outbox', 'password_resets', 'profile_timelines', 'rate_limits', 'sessions', 'users']);
