export { AuthConfig } from './auth.config.js';
export { schema as authSchema } from './schema.js';
export { startAuthService, type AuthServiceOptions } from './service.js';
export { secretKeyFrom } from './two-step/secret-box.js';
export { purgeAccount, type PurgedAccount } from './deletion/account-purge.js';
export { AccountDeletionService } from './deletion/account-deletion.service.js';
