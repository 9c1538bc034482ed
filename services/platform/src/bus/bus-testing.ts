export { deleteBusStreams } from './jetstream-streams.js';

/** The NATS server integration tests use: TEST_NATS_URL, else the machine's 127.0.0.1:4222. */
export const testNatsUrl = (): string => process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
