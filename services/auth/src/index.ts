export { AuthConfig } from './auth.config.js';
export { schema as authSchema } from './schema.js';
export { startAuthService, type AuthServiceOptions } from './service.js';
export { secretKeyFrom } from './two-step/secret-box.js';
