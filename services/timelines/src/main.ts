import { createMailSender, runServiceProcess } from '@timeliner/platform';
import { startTimelinesService } from './service.js';
import { TimelinesConfig } from './timelines.config.js';

/** The timelines service as its own process. */
runServiceProcess('timelines', TimelinesConfig, async ({ config, logger, bus, databaseUrl, identitySecret }) => {
  const mail = createMailSender({ mailUrl: config.MAIL_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, logger });
  const service = await startTimelinesService({
    databaseUrl, bus, logger, identitySecret, port: config.PORT, host: config.HOST, mail, publicOrigin: config.PUBLIC_ORIGIN, invitationMailLimits: config.invitationMailLimits(),
  });
  return {
    async close() {
      await service.close();
      await mail.close();
    },
  };
});
