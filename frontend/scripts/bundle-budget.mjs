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
/** The files a module's chunk needs before it runs: its own and its static imports, recursively. */
function staticClosure(key, files = new Set()) {
  const entry = manifest[key];
  if (!entry) throw new Error(`${key} is not in the build's manifest: has the route moved?`);
  if (files.has(entry.file)) return files;
  files.add(entry.file);
  for (const imported of entry.imports ?? []) staticClosure(imported, files);
  return files;
}
const routeFailures = [];
console.log('first screen JS per route (as transferred, brotli; the page\'s own included):');
for (const { route, modules } of ROUTES) {
  const files = new Set(initial);
  for (const module of modules) staticClosure(module, files);
  const bytes = [...files].reduce((sum, file) => sum + transferred(file), 0);
  // What the screen's own code loads later, on demand (the page's dynamic imports are the routes).
  const screenFiles = [...files].filter((file) => !initial.includes(file));
  const later = new Set(screenFiles.flatMap((file) => Object.values(manifest).find((entry) => entry.file === file)?.dynamicImports ?? []));
  const heavyLater = [...later]
    .map((key) => manifest[key]?.file)
    .filter((file) => file && !files.has(file) && transferred(file) >= 10_000)
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
