#!/usr/bin/env node
// `npm test`: everything CI checks, in the order that fails fastest.
//   lint (with module boundaries), typecheck and build side by side → jest (unit, integration,
//   frontend, e2e)
// Postgres (127.0.0.1:5432) and NATS (127.0.0.1:4222) must be running; each test file makes its
// own database and stream prefix. Pass jest arguments after `--`, e.g. `npm test -- --selectProjects unit`.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bin, root, run } from './lib.mjs';

const started = Date.now();
const extra = process.argv.slice(2);
/** More failing files than this in the full run: something is broken, and a second run would only add time. */
const MAX_SECOND_RUNS = 6;
const step = (name) => console.log(`\n▶ ${name}`);

/** Runs one command; resolves with its status and what it printed (stdout and stderr together). */
const running = new Set();
const runKept = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    child.on('exit', () => running.delete(child));
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (err) => resolve({ status: 1, output: `${output}${err.message}\n` }));
    child.on('close', (status, signal) => resolve({ status: status ?? 1, output: signal ? `${output}(${signal})\n` : output }));
  });

/**
 * Lint, the typechecks and the build side by side (each chain's commands in order): they share
 * nothing, and on two cores they take about half as long as one after the other. A chain's output
 * is shown once it ends, whole; the first failure ends the command.
 */
async function checks(chains) {
  await Promise.all(
    Object.entries(chains).map(async ([name, commands]) => {
      const began = Date.now();
      for (const [command, args] of commands) {
        const { status, output } = await runKept(command, args);
        if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
        if (status !== 0) {
          console.error(`\n✗ ${name}: ${[command, ...args].join(' ')} exited with ${status}`);
          for (const child of running) child.kill('SIGTERM');
          process.exit(status);
        }
      }
      console.log(`  ${name}: ${((Date.now() - began) / 1000).toFixed(0)} s`);
    }),
  );
}

if (extra.length === 0) {
  step('lint, typecheck and build');
  await checks({
    lint: [['npm', ['run', 'lint', '--silent']]],
    // tsc -b, the bundles, and the web app when its sources changed (lib.mjs).
    build: [[process.execPath, ['--input-type=module', '-e', `import { buildAll } from ${JSON.stringify(path.join(root, 'scripts/lib.mjs'))}; buildAll();`]]],
    typecheck: [
      // Incremental, as tsconfig.tests.json is: a second run checks only what changed.
      [bin('tsc'), ['-p', 'frontend/tsconfig.json', '--noEmit', '--incremental', '--tsBuildInfoFile', 'node_modules/.cache/frontend.tsbuildinfo']],
      [bin('tsc'), ['-p', 'frontend/tsconfig.node.json', '--noEmit', '--incremental', '--tsBuildInfoFile', 'node_modules/.cache/frontend-node.tsbuildinfo']],
      [bin('tsc'), ['-p', 'tsconfig.tests.json']],
    ],
  });
}

step('tests');
const jest = (args, counts) =>
  run(
    process.execPath,
    [
      '--experimental-vm-modules', path.join(root, 'node_modules/jest/bin/jest.js'),
      // Once every file has finished, the run ends: a process a failed test left behind (a child it
      // never stopped) must not keep CI waiting until its time runs out. Single files run without it.
      '--forceExit',
      '--reporters=default', `--reporters=${path.join(root, 'scripts/jest-counts-reporter.cjs')}`, ...args,
    ],
    { allowFailure: true, env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --no-warnings=ExperimentalWarning`.trim(), JEST_COUNTS_FILE: counts } },
  );
const readCounts = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  } finally {
    rmSync(file, { force: true });
  }
};

const results = path.join(os.tmpdir(), `timeliner-jest-${process.pid}.json`);
let status = jest(extra, results);
const summary = readCounts(results);
const seconds = ((Date.now() - started) / 1000).toFixed(0);
if (!summary) {
  console.error('no test results were written');
} else {
  console.log(`\n${summary.numTotalTestSuites} test files, ${seconds} s in all`);
  console.log(`Tests: ${summary.numPassedTests} passed, ${summary.numFailedTests} failed, ${summary.numPendingTests} skipped`);
  const slowest = (summary.durations ?? []).slice(0, 15);
  if (slowest.length > 0) {
    console.log('Slowest files:');
    for (const { file, seconds } of slowest) console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${file}`);
  }
}

// A file that failed in the full run, where four files share two cores with their products and
// browsers, runs once more on its own. A failure that holds on a quiet machine fails the run; one
// that does not is named below as timing-dependent, to be fixed, and does not hide a real defect
// (that fails twice). Many failing files mean something is broken, not slow: no second run then.
const failed = summary?.failed ?? [];
if (status !== 0 && failed.length > 0 && failed.length <= MAX_SECOND_RUNS && extra.length === 0) {
  step(`second run, alone, of the ${failed.length} file(s) that failed: ${failed.join(', ')}`);
  const again = path.join(os.tmpdir(), `timeliner-jest-${process.pid}-again.json`);
  status = jest(['--maxWorkers=1', '--runTestsByPath', ...failed], again);
  const second = readCounts(again);
  if (status === 0 && second && second.numFailedTests === 0) {
    console.log(`\n⚠ passed alone, failed under the full run's load (timing-dependent, to be fixed):`);
    for (const file of failed) console.log(`  ${file}`);
  } else {
    status = status || 1;
    console.error(`\n✗ failed again on a second run alone: ${(second?.failed ?? failed).join(', ')}`);
  }
}
process.exit(status);
