#!/usr/bin/env node
// `npm start`: build what changed, then run the whole product in one process on embedded defaults.
import { buildAll } from './lib.mjs';

buildAll({ bundles: false });
await import('../deploy/single-process.mjs');
