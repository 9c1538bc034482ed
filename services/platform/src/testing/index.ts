export * from './postgres.js';
export * from '../bus/bus-testing.js';
export * from './ports.js';
