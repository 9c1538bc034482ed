// The fault suite (`npm run test:faults`): the separate-process topology on a Postgres and a NATS
// of its own, crashed and stopped under load. Minutes long, so not part of `npm test`; its files
// end in `.faults.ts`, which no project of the root configuration matches.
import { fileURLToPath } from 'node:url';
import root from '../../jest.config.mjs';

const repository = fileURLToPath(new URL('../..', import.meta.url));
const integration = root.projects.find((project) => project.displayName === 'integration');

export default {
  rootDir: repository,
  testTimeout: 20_000,
  projects: [{ ...integration, rootDir: repository, displayName: 'faults', testMatch: ['<rootDir>/test/faults/**/*.faults.ts'] }],
};
