export { TimelinesConfig } from './timelines.config.js';
export { schema as timelinesSchema } from './schema.js';
export { CONSUMER_GROUP, startTimelinesService, type TimelinesServiceOptions } from './service.js';
