// The cluster suite (`npm run test:cluster`): the separate-process topology on a three-server NATS
// JetStream cluster of its own (and a Postgres cluster of its own), servers killed under load.
// Minutes long, so not part of `npm test`; its files end in `.cluster.ts`, which no project of the
// root configuration matches.
import { fileURLToPath } from 'node:url';
import root from '../../jest.config.mjs';

const repository = fileURLToPath(new URL('../..', import.meta.url));
const integration = root.projects.find((project) => project.displayName === 'integration');

export default {
  rootDir: repository,
  testTimeout: 20_000,
  projects: [{ ...integration, rootDir: repository, displayName: 'cluster', testMatch: ['<rootDir>/test/cluster/**/*.cluster.ts'] }],
};
