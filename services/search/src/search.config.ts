import { BaseConfig } from '@timeliner/platform';

/** The search service needs nothing beyond the common settings (port, database, bus, secret). */
export class SearchConfig extends BaseConfig {}
