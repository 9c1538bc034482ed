import { runServiceProcess } from '@timeliner/platform';
import { startSocialService } from './service.js';
import { SocialConfig } from './social.config.js';

/** The social service as its own process. */
runServiceProcess('social', SocialConfig, ({ config, logger, bus, databaseUrl, identitySecret }) =>
  startSocialService({ databaseUrl, bus, logger, identitySecret, port: config.PORT, host: config.HOST, timelinesTimeoutMs: config.TIMELINES_TIMEOUT_MS }),
);
