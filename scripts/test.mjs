#!/usr/bin/env node
// `npm test`: everything CI checks, in the order that fails fastest.
//   lint (with module boundaries) → typecheck → build → jest (unit, integration, frontend, e2e)
// Postgres (127.0.0.1:5432) and NATS (127.0.0.1:4222) must be running; each test file makes its
// own database and stream prefix. Pass jest arguments after `--`, e.g. `npm test -- --selectProjects unit`.
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bin, buildAll, root, run } from './lib.mjs';

const started = Date.now();
const extra = process.argv.slice(2);
const step = (name) => console.log(`\n▶ ${name}`);

if (extra.length === 0) {
  step('lint');
  run('npm', ['run', 'lint', '--silent']);
  step('typecheck and build');
  buildAll();
  run(bin('tsc'), ['-p', 'frontend/tsconfig.json', '--noEmit']);
  run(bin('tsc'), ['-p', 'frontend/tsconfig.node.json', '--noEmit']);
  run(bin('tsc'), ['-p', 'tsconfig.tests.json']);
}

step('tests');
const results = path.join(os.tmpdir(), `timeliner-jest-${process.pid}.json`);
const status = run(
  process.execPath,
  [
    '--experimental-vm-modules', path.join(root, 'node_modules/jest/bin/jest.js'),
    // Once every file has finished, the run ends: a process a failed test left behind (a child it
    // never stopped) must not keep CI waiting until its time runs out. Single files run without it.
    '--forceExit',
    '--reporters=default', `--reporters=${path.join(root, 'scripts/jest-counts-reporter.cjs')}`, ...extra,
  ],
  { allowFailure: true, env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --no-warnings=ExperimentalWarning`.trim(), JEST_COUNTS_FILE: results } },
);
try {
  const summary = JSON.parse(readFileSync(results, 'utf8'));
  rmSync(results, { force: true });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`\n${summary.numTotalTestSuites} test files, ${seconds} s in all`);
  console.log(`Tests: ${summary.numPassedTests} passed, ${summary.numFailedTests} failed, ${summary.numPendingTests} skipped`);
  const slowest = (summary.durations ?? []).slice(0, 15);
  if (slowest.length > 0) {
    console.log('Slowest files:');
    for (const { file, seconds } of slowest) console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${file}`);
  }
} catch {
  console.error('no test results were written');
}
process.exit(status);
