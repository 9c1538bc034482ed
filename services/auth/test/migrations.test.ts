import { authSchema } from '../src/index.js';
import { schemaContract } from '../../../test/support/schema-contract.js';

schemaContract(authSchema, ['inbox', 'migrations', 'outbox', 'password_resets', 'rate_limits', 'sessions', 'users']);
