// Prints the bytes of JavaScript the built page loads before anything else (its entry script and
// module preloads) as the gateway sends them to a browser that accepts brotli (the `.br` files
// written by precompress.mjs; a file without one goes as it is), and fails when they exceed the
// budget (DESIGN.md section 8: initial JS ≤ 150 KB as transferred). The page's style sheet and
// the lazy route chunks are listed for information.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';

const BUDGET_BYTES = 150_000;
const dist = new URL('../dist/', import.meta.url);
const html = readFileSync(new URL('index.html', dist), 'utf8');
const initial = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]);
const transferred = (path) => {
  const compressed = new URL(`${path}.br`, dist);
  return statSync(existsSync(compressed) ? compressed : new URL(path, dist)).size;
};
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

let total = 0;
console.log('initial JS (as transferred, brotli):');
for (const path of initial) {
  const size = transferred(path);
  total += size;
  console.log(`  ${path.padEnd(48)} ${kb(size).padStart(9)}`);
}
console.log(`  ${'total'.padEnd(48)} ${kb(total).padStart(9)}  (budget ${kb(BUDGET_BYTES)})`);

// The page's one style sheet (every screen's styles, loaded with the page).
const styles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="\/(assets\/[^"]+\.css)"/g)].map((match) => match[1]);
for (const path of styles) console.log(`style sheet (as transferred, brotli): ${path} ${kb(transferred(path))}`);

const lazy = readdirSync(new URL('assets/', dist)).filter((name) => name.endsWith('.js') && !initial.includes(`assets/${name}`));
const lazyTotal = lazy.reduce((sum, name) => sum + transferred(`assets/${name}`), 0);
console.log(`lazy chunks: ${lazy.length}, ${kb(lazyTotal)} as transferred in all`);

if (total > BUDGET_BYTES) {
  console.error(`initial JS is ${kb(total)} as transferred, over the ${kb(BUDGET_BYTES)} budget`);
  process.exit(1);
}
