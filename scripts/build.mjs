#!/usr/bin/env node
// `npm run build`: server packages and the bundles the processes run, the API description and typed
// client from the code, the web app.
import { bin, run } from './lib.mjs';

run(bin('tsc'), ['-b', 'tsconfig.json']);
run(process.execPath, ['deploy/bundle.mjs']);
run(process.execPath, ['scripts/openapi.mjs']);
run('npm', ['run', 'build', '--silent', '-w', '@timeliner/frontend']);
