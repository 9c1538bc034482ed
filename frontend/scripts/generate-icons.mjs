// Renders the app icons (PNG) into public/icons from the same geometry as the in-app logo:
// a play triangle over a timeline bar on the brand colour. Run: node scripts/generate-icons.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const BRAND = [0x4f, 0x46, 0xe5];
const WHITE = [0xff, 0xff, 0xff];
const SAMPLES = 4; // per axis, for anti-aliased edges

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // no filter
    rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function insideRoundedRect(x, y, left, top, right, bottom, radius) {
  if (x < left || x > right || y < top || y > bottom) return false;
  const cx = Math.min(Math.max(x, left + radius), right - radius);
  const cy = Math.min(Math.max(y, top + radius), bottom - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

function insideTriangle(x, y, [ax, ay], [bx, by], [cx, cy]) {
  const side = (px, py, qx, qy) => (x - qx) * (py - qy) - (px - qx) * (y - qy);
  const d1 = side(ax, ay, bx, by);
  const d2 = side(bx, by, cx, cy);
  const d3 = side(cx, cy, ax, ay);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
}

/**
 * Geometry in a 32-unit square. `rounded` gives the 'any' icon its rounded tile; full-bleed
 * tiles are for maskable and Apple icons, which the platform crops itself. `scale` shrinks the
 * mark around the centre (maskable icons keep content inside the central safe zone).
 */
function render(size, { rounded, scale }) {
  const rgba = Buffer.alloc(size * size * 4);
  const unit = size / 32;
  const toMark = (v) => 16 + (v - 16) / scale; // pixel (in units) → unscaled mark coordinates
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let tile = 0;
      let mark = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = (px + (sx + 0.5) / SAMPLES) / unit;
          const y = (py + (sy + 0.5) / SAMPLES) / unit;
          const inTile = rounded ? insideRoundedRect(x, y, 0, 0, 32, 32, 7) : true;
          if (!inTile) continue;
          tile++;
          const mx = toMark(x);
          const my = toMark(y);
          if (insideTriangle(mx, my, [12, 9.5], [12, 22.5], [22, 16]) || insideRoundedRect(mx, my, 7, 24.5, 25, 26.5, 1)) mark++;
        }
      }
      const total = SAMPLES * SAMPLES;
      const markShare = tile ? mark / tile : 0;
      const offset = (py * size + px) * 4;
      for (let i = 0; i < 3; i++) rgba[offset + i] = Math.round(BRAND[i] * (1 - markShare) + WHITE[i] * markShare);
      rgba[offset + 3] = Math.round((tile / total) * 255);
    }
  }
  return encodePng(size, rgba);
}

const out = new URL('../public/icons/', import.meta.url);
mkdirSync(out, { recursive: true });
const icons = [
  ['icon-192.png', 192, { rounded: true, scale: 1 }],
  ['icon-512.png', 512, { rounded: true, scale: 1 }],
  ['maskable-512.png', 512, { rounded: false, scale: 0.8 }],
  ['apple-touch-icon.png', 180, { rounded: false, scale: 0.9 }],
  ['favicon-32.png', 32, { rounded: true, scale: 1 }],
];
for (const [name, size, options] of icons) {
  writeFileSync(new URL(name, out), render(size, options));
  console.log(`wrote public/icons/${name} (${size}x${size})`);
}
