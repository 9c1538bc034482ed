import { createMailSender, runServiceProcess } from '@timeliner/platform';
import { AuthConfig } from './auth.config.js';
import { startAuthService } from './service.js';
import { secretKeyFrom } from './two-step/secret-box.js';

/** The auth service as its own process. */
runServiceProcess('auth', AuthConfig, async ({ config, logger, bus, databaseUrl, identitySecret }) => {
  const mail = createMailSender({ mailUrl: config.MAIL_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, logger });
  const service = await startAuthService({ databaseUrl, bus, logger, identitySecret, port: config.PORT, host: config.HOST, mail, publicOrigin: config.PUBLIC_ORIGIN, totpSecretKey: secretKeyFrom(config.TOTP_SECRET_KEY), deletionGraceMs: config.ACCOUNT_DELETION_GRACE_SECONDS * 1000, purgeIntervalMs: config.ACCOUNT_PURGE_INTERVAL_SECONDS * 1000 });
  return {
    async close() {
      await service.close();
      await mail.close();
    },
  };
});
