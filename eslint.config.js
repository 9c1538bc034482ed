// Flat ESLint config for the whole repository. Rules are syntax-only (no type-aware linting):
// `tsc -b` already type-checks, and a type-aware lint would need every project built first and
// triple the run time. Module boundaries are checked separately by dependency-cruiser
// (.dependency-cruiser.cjs), which sees resolved paths and package names.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    files: ['frontend/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    // The web app runs in the browser (and its service worker), never in Node.
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } },
  },
);
