import { Initial1764100000000 } from './1764100000000-initial.js';

/** In order. A new migration is appended, never edited once released. */
export const mediaMigrations = [Initial1764100000000];
