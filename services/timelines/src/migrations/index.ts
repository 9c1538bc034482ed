import { Initial1764000000000 } from './1764000000000-initial.js';

/** In order. A new migration is appended, never edited once released. */
export const timelinesMigrations = [Initial1764000000000];
