import { Initial1763805600000 } from './1763805600000-initial.js';

/** In order. A new migration is appended, never edited once released. */
export const socialMigrations = [Initial1763805600000];
