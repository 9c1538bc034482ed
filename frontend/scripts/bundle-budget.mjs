// Prints the bytes of JavaScript the built page loads before anything else (its entry script and
// module preloads) as the gateway sends them to a browser that accepts brotli (the `.br` files
// written by precompress.mjs; a file without one goes as it is), and fails when they exceed the
// budget (DESIGN.md section 8: initial JS ≤ 150 KB as transferred). Then, per route, the
// JavaScript a first visit needs for its first screen: the page's, the screen's code and
// everything it imports statically (read from Vite's manifest), which is what the router asks for
// before it renders; code a screen imports dynamically (hls.js, dialogs) is not part of it and is
// listed apart. The page's style sheet and the lazy chunks in all are listed for information.
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

// The first screen of each route: the signed-in ones render inside the app's layout, a visitor
// gets the sign-in screen (src/app/routes/require-auth.tsx).
const LAYOUT = 'src/app/layout/app-layout.tsx';
const ROUTES = [
  { route: '/ signed out (sign-in)', modules: ['src/features/auth/components/auth-screen.tsx'] },
  { route: '/ (home)', modules: [LAYOUT, 'src/app/routes/app/home-feed.tsx'] },
  { route: '/studio', modules: [LAYOUT, 'src/app/routes/app/studio.tsx'] },
  { route: '/watch/{id}', modules: [LAYOUT, 'src/app/routes/app/watch.tsx'] },
  { route: '/search', modules: [LAYOUT, 'src/app/routes/app/search.tsx'] },
  { route: '/profile/{id}', modules: [LAYOUT, 'src/app/routes/app/profile.tsx'] },
];
const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));
/** A module and what it imports statically, recursively: the manifest keys of what it needs before it runs. */
function staticClosure(key, keys = new Set()) {
  if (!manifest[key]) throw new Error(`${key} is not in the build's manifest: has the route moved?`);
  if (keys.has(key)) return keys;
  keys.add(key);
  for (const imported of manifest[key].imports ?? []) staticClosure(imported, keys);
  return keys;
}
const routeFailures = [];
console.log('first screen JS per route (as transferred, brotli; the page\'s own included):');
for (const { route, modules } of ROUTES) {
  const keys = new Set();
  for (const module of modules) staticClosure(module, keys);
  const files = new Set([...initial, ...[...keys].map((key) => manifest[key].file)]);
  const bytes = [...files].reduce((sum, file) => sum + transferred(file), 0);
  // What the screen's own code loads later, on demand (the page's dynamic imports are the routes).
  const later = new Set([...keys].filter((key) => !initial.includes(manifest[key].file)).flatMap((key) => manifest[key].dynamicImports ?? []));
  const heavyLater = [...later]
    .map((key) => manifest[key].file)
    .filter((file) => !files.has(file) && transferred(file) >= 10_000)
    .map((file) => `${file.replace(/^assets\//, '')} ${kb(transferred(file))}`);
  console.log(`  ${route.padEnd(24)} ${kb(bytes).padStart(9)} in ${String(files.size).padStart(2)} files${heavyLater.length ? `; later, on demand: ${heavyLater.join(', ')}` : ''}`);
  if (bytes > BUDGET_BYTES) routeFailures.push(`${route}: ${kb(bytes)}`);
}

const lazy = readdirSync(new URL('assets/', dist)).filter((name) => name.endsWith('.js') && !initial.includes(`assets/${name}`));
const lazyTotal = lazy.reduce((sum, name) => sum + transferred(`assets/${name}`), 0);
console.log(`lazy chunks: ${lazy.length}, ${kb(lazyTotal)} as transferred in all`);

if (total > BUDGET_BYTES) {
  console.error(`initial JS is ${kb(total)} as transferred, over the ${kb(BUDGET_BYTES)} budget`);
  process.exit(1);
}
if (routeFailures.length > 0) {
  console.error(`first screen JS over the ${kb(BUDGET_BYTES)} budget: ${routeFailures.join('; ')}`);
  process.exit(1);
}
