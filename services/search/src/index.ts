export { SearchConfig } from './search.config.js';
export { schema as searchSchema } from './schema.js';
export { startSearchService, type SearchServiceOptions } from './service.js';
