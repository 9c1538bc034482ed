// Flat ESLint config for the whole repository. Rules are syntax-only (no type-aware linting):
// `tsc -b` already type-checks, and a type-aware lint would need every project built first and
// triple the run time. Module boundaries are checked separately by dependency-cruiser
// (.dependency-cruiser.cjs), which sees resolved paths and package names.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// One way to do each thing in the services (services/README.md).
//
// Shared rules live once, in @timeliner/platform: a service does not declare its own UUID check,
// text clipping, next-cursor header or page-query fields, nor nudge the outbox relay by hand.
export const sharedRuleCopies = [
  { selector: 'VariableDeclarator[id.name=/^(isUuid|idOf|clip|UUID|UUID_RE|NEXT_CURSOR_HEADER)$/], FunctionDeclaration[id.name=/^(isUuid|idOf|clip)$/]', message: 'Use the platform\'s payload checks and pagination (isUuid, idOf, clipCodePoints, NEXT_CURSOR_HEADER) instead of a copy.' },
  { selector: 'Literal[regex.pattern=/\\[0-9a-f(A-F)?\\]\\{8\\}-/i], Literal[value=/\\[0-9a-f(A-F)?\\]\\{8\\}-/i]', message: 'A UUID pattern is checked once, by the platform\'s isUuid.' },
  { selector: 'Literal[value=/^x-next-cursor$/i]', message: 'Use NEXT_CURSOR_HEADER, sendPage or nextCursorHeaderDoc from @timeliner/platform.' },
  { selector: "Decorator Literal[value='Invalid cursor'], TemplateElement[value.raw=/^Limit must be a whole number/]", message: 'Use PageQuery, PageLimit or PageCursor from @timeliner/platform.' },
  { selector: "CallExpression[callee.property.name='committed'][arguments.length=0]", message: 'EventWriter.add nudges the relay after the commit by itself; use afterCommit(manager, fn) for other work.' },
];
// No raw connection in a service class or a controller: SQL and the DataSource belong to
// repositories; a service coordinates them in `transactions.run(async (manager) => ...)`, handing
// the manager on without calling it.
export const rawConnection = [
  { selector: "CallExpression[callee.property.name=/^(query|transaction|getRepository|createQueryBuilder)$/]", message: 'Raw database access belongs in a repository; a service takes Transactions and repositories.' },
  { selector: "CallExpression > MemberExpression.callee[object.name=/^(manager|entityManager|em|tx)$/]", message: 'Hand the manager to a repository; a service does not query with it.' },
  { selector: "MemberExpression[object.type='ThisExpression'][property.name=/^(dataSource|manager)$/]", message: 'A service takes Transactions and repositories, not the DataSource.' },
];
// `import type { EntityManager }` stays allowed: a service hands the transaction's manager on.
export const noTypeormConnection = {
  paths: [
    { name: 'typeorm', importNames: ['DataSource', 'QueryRunner', 'Repository'], message: 'A service takes Transactions and repositories, not a connection.' },
    { name: 'typeorm', importNames: ['EntityManager'], allowTypeImports: true, message: 'A service only hands the manager on: import its type alone.' },
  ],
};
// Where the rules hold: every service and the gateway.
const oneWayDone = ['services/search', 'services/notifications', 'services/timelines', 'services/social', 'services/media', 'services/auth', 'gateway'];

export default defineConfig(
  globalIgnores([
    '**/node_modules/**',
    '**/dist/**',
    'frontend/dist/**',
    'coverage/**',
    '.nx/**',
    // Generated code (protobuf-es output, the OpenAPI client schema) is rewritten by its generator.
    '**/gen/**',
    '**/*.gen.ts',
  ]),

  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
    // A `/* global fetch */` comment that restates a built-in is documentation, not a bug.
    rules: { 'no-redeclare': ['error', { builtinGlobals: false }] },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    // The service worker runs in the browser's worker scope, not in Node.
    files: ['frontend/pwa/**/*.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },

  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    extends: [tseslint.configs.recommended],
    rules: {
      // `_`-prefixed names are deliberate (unused parameters kept for a signature, rest omission).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },

  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    ignores: ['frontend/src/**'],
    languageOptions: { globals: globals.node },
  },

  {
    files: ['services/platform/src/**/*.ts', ...oneWayDone.map((dir) => `${dir}/src/**/*.ts`)],
    // The platform's own modules are where the shared rules live.
    ignores: [
      '**/*.spec.ts',
      'services/platform/src/payload/payload-checks.ts',
      'services/platform/src/http/pagination.ts',
      'services/platform/src/bus/event-writer.ts',
    ],
    rules: { 'no-restricted-syntax': ['error', ...sharedRuleCopies] },
  },
  {
    files: oneWayDone.flatMap((dir) => [`${dir}/src/**/*.service.ts`, `${dir}/src/**/*.controller.ts`]),
    rules: {
      'no-restricted-syntax': ['error', ...sharedRuleCopies, ...rawConnection],
      '@typescript-eslint/no-restricted-imports': ['error', noTypeormConnection],
    },
  },

  {
    files: ['frontend/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    // The web app runs in the browser (and its service worker), never in Node.
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } },
  },
);
