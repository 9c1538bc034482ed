import os from 'node:os';

// One jest run for the whole repository. Projects split the tiers so a developer can run one:
// `npx jest --selectProjects unit`; `npm test` runs them together, the longest files first.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true, tsx: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'es6' },
  },
];

const server = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)sx?$': swc },
  // Fastify's light-my-request pulls `cookie` 2, which is ESM-only; jest must transform it.
  transformIgnorePatterns: ['/node_modules/(?!(cookie)/)'],
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testEnvironmentOptions: { customExportConditions: ['source', 'node'] },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/', '<rootDir>/frontend/'],
};

export default {
  // One worker more than the machine has cores (jest's default is one fewer: a single worker on
  // two cores, every file in turn). Browser journeys and service tests spend much of their time
  // waiting on the product, Chromium, ffmpeg, Postgres and NATS, so a serial run left half of a
  // 2-core machine idle. At most 4: each file opens pools of its own on the one Postgres.
  maxWorkers: Math.min(os.availableParallelism() + 1, 4),
  // Hooks start services and databases: on a busy 2-core machine 5 s is too tight for them.
  testTimeout: 20_000,
  // A worker that has grown past this after a file is replaced by a fresh one: each file's ESM
  // modules stay in the worker's memory, and a worker that ran dozens of files spends its time
  // collecting garbage (files that take 2 s alone took 50-80 s late in a run).
  workerIdleMemoryLimit: '1GB',
  // Names the run: its test databases carry the name, its migrated template databases (copied for
  // each file instead of migrating each file's) belong to it, and the teardown drops what it left.
  globalSetup: '<rootDir>/test/support/jest-global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/jest-global-teardown.mjs',
  projects: [
    {
      ...server,
      displayName: 'unit',
      testMatch: ['<rootDir>/{proto,services,gateway,scripts,deploy}/**/src/**/*.spec.ts', '<rootDir>/scripts/**/*.spec.ts'],
    },
    {
      ...server,
      displayName: 'integration',
      testMatch: ['<rootDir>/{proto,services,gateway,deploy,k8s}/**/test/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
    },
    {
      displayName: 'frontend',
      // jsdom plus Node's Fetch API globals (jsdom has none); see the file for why.
      testEnvironment: '<rootDir>/frontend/test/jsdom-environment.mjs',
      transform: { '^.+\\.(t|j)sx?$': swc },
      extensionsToTreatAsEsm: ['.ts', '.tsx'],
      moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1', '\\.(css)$': '<rootDir>/frontend/test/style-stub.cjs' },
      testMatch: ['<rootDir>/frontend/src/**/*.test.{ts,tsx}'],
      setupFilesAfterEnv: ['<rootDir>/frontend/test/setup.ts'],
    },
    {
      ...server,
      displayName: 'e2e',
      testMatch: ['<rootDir>/e2e/**/*.e2e.ts'],
    },
  ],
};
