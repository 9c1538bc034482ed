// Prints the gzipped size of the JavaScript the built page loads before anything else (its entry
// script and module preloads) and fails when it exceeds the budget (DESIGN.md section 8: initial
// JS ≤ 150 KB gzipped). Lazy route chunks are listed for information.
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 150_000;
const dist = new URL('../dist/', import.meta.url);
const html = readFileSync(new URL('index.html', dist), 'utf8');
const initial = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]);
const gzipped = (path) => gzipSync(readFileSync(new URL(path, dist)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

let total = 0;
console.log('initial JS (gzip):');
for (const path of initial) {
  const size = gzipped(path);
  total += size;
  console.log(`  ${path.padEnd(48)} ${kb(size).padStart(9)}`);
}
console.log(`  ${'total'.padEnd(48)} ${kb(total).padStart(9)}  (budget ${kb(BUDGET_BYTES)})`);

const lazy = readdirSync(new URL('assets/', dist)).filter((name) => name.endsWith('.js') && !initial.includes(`assets/${name}`));
const lazyTotal = lazy.reduce((sum, name) => sum + gzipped(`assets/${name}`), 0);
console.log(`lazy chunks: ${lazy.length}, ${kb(lazyTotal)} gzip in all`);

if (total > BUDGET_BYTES) {
  console.error(`initial JS is ${kb(total)} gzipped, over the ${kb(BUDGET_BYTES)} budget`);
  process.exit(1);
}
