import { runServiceProcess } from '@timeliner/platform';
import { SearchConfig } from './search.config.js';
import { startSearchService } from './service.js';

/** The search service as its own process. */
runServiceProcess('search', SearchConfig, ({ config, logger, bus, databaseUrl, identitySecret }) =>
  startSearchService({ databaseUrl, bus, logger, identitySecret, port: config.PORT, host: config.HOST }),
);
