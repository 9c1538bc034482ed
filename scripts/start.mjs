#!/usr/bin/env node
// `npm start`: build what changed, then run the whole product in one process on embedded defaults.
import { buildAll } from './lib.mjs';

// Quiet: the build's output only if it fails, so the "running at" line stands out.
buildAll({ bundles: false, quiet: true });
await import('../deploy/single-process.mjs');
