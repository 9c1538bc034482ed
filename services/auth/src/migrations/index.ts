import { Initial1763719200000 } from './1763719200000-initial.js';

/** In order. A new migration is appended, never edited once released. */
export const authMigrations = [Initial1763719200000];
