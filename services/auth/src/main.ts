import { runServiceProcess } from '@timeliner/platform';
import { AuthConfig } from './auth.config.js';
import { startAuthService } from './service.js';

/** The auth service as its own process. */
runServiceProcess('auth', AuthConfig, ({ config, logger, bus, databaseUrl, identitySecret }) =>
  startAuthService({ databaseUrl, bus, logger, identitySecret, port: config.PORT, host: config.HOST }),
);
