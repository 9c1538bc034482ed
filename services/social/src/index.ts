export { SocialConfig } from './social.config.js';
export { schema as socialSchema } from './schema.js';
export { startSocialService, type SocialServiceOptions } from './service.js';
