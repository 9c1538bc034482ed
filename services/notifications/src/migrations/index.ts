import { Initial1765200000000 } from './1765200000000-initial.js';

/** In order. A new migration is appended, never edited once released. */
export const notificationsMigrations = [Initial1765200000000];
