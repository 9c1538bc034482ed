// Writes `file.br` and `file.gz` beside every compressible file of the build, which the gateway
// sends to browsers that accept them (gateway/src/web/file-server.ts), with `Vary: Accept-Encoding`.
// Done once at build time at the highest levels, so serving costs no CPU. index.html is left out:
// the gateway renders it per request (its CSP nonce).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|webmanifest|txt|xml|wasm)$/;
// Below this, the headers of a compressed answer cost more than they save.
const MIN_BYTES = 1024;

const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));

let plain = 0;
let brotli = 0;
let files = 0;
for (const file of walk(dist)) {
  if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_BYTES) continue;
  const bytes = readFileSync(file);
  const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  const gz = gzipSync(bytes, { level: 9 });
  // A variant that is not smaller is not worth sending.
  if (br.length < bytes.length) writeFileSync(`${file}.br`, br);
  if (gz.length < bytes.length) writeFileSync(`${file}.gz`, gz);
  plain += bytes.length;
  brotli += Math.min(br.length, bytes.length);
  files += 1;
}
console.log(`precompressed ${files} files under ${relative(process.cwd(), dist) || dist}: ${(plain / 1000).toFixed(0)} KB → ${(brotli / 1000).toFixed(0)} KB brotli`);
