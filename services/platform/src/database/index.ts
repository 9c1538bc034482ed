export * from './database.js';
export * from './embedded-postgres.js';
export * from './snake-naming.strategy.js';
export * from './prepared.js';
export * from './transactions.js';
export * from './read-replica.js';
