import { SearchReadModel1765300000000 } from './1765300000000-search-read-model.js';

/** In order. A new migration is appended, never edited once released. */
export const searchMigrations = [SearchReadModel1765300000000];
