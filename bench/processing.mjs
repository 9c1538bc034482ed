#!/usr/bin/env node
// Video processing benchmark (DESIGN.md section 8, "processing"): a 20 s 720p and a 20 s 1080p
// source (ffmpeg lavfi testsrc2 + sine) through the worker's own pipeline — the same ffmpeg
// commands, imported from the built worker (services/media/dist) — printing wall seconds,
// × realtime, and seconds until the first rendition is playable (master playlist written).
//
//   npm run build   (or: node_modules/.bin/tsc -b services/media)
//   node bench/processing.mjs [--seconds 20] [--keep]
//
// Bars: 720p source → full ladder at ≥ 1.5× realtime; first playable rendition ≤ 10 s.
// FFMPEG_PATH / FFPROBE_PATH override the binaries, as for the worker.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const args = process.argv.slice(2);
const seconds = Number(args[args.indexOf('--seconds') + 1]) > 0 && args.includes('--seconds') ? Number(args[args.indexOf('--seconds') + 1]) : 20;
const keep = args.includes('--keep');

let modules;
try {
  modules = {
    ffmpeg: await import('../services/media/dist/processing/ffmpeg.js'),
    probe: await import('../services/media/dist/processing/probe.js'),
    transcode: await import('../services/media/dist/processing/transcode.js'),
  };
} catch (error) {
  console.error('Build the media service first: node_modules/.bin/tsc -b services/media\n', error.message);
  process.exit(1);
}
const binaries = modules.ffmpeg.resolveBinaries({ ffmpegPath: process.env.FFMPEG_PATH, ffprobePath: process.env.FFPROBE_PATH });
const { stdout: version } = await exec(binaries.ffmpeg, ['-hide_banner', '-version']);

const BARS = { realtime720: 1.5, firstPlayable: 10 };
const work = await mkdtemp(join(tmpdir(), 'bench-processing-'));
console.log(`ffmpeg: ${version.split('\n')[0]}`);
console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`sources: ${seconds} s testsrc2 + 440 Hz sine, 30 fps, H.264/AAC; worker pipeline: stills, lowest rung, then the other rungs in one decode\n`);

const results = [];
try {
  for (const [label, size] of [['720p', '1280x720'], ['1080p', '1920x1080']]) {
    const source = join(work, `source-${label}.mp4`);
    await exec(binaries.ffmpeg, [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30:duration=${seconds}`,
      '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', source,
    ]);
    const started = performance.now();
    const info = await modules.probe.probe(binaries.ffprobe, source, 'video');
    let firstPlayable = NaN;
    let stills = NaN;
    const result = await modules.transcode.transcodeVideo({
      ...binaries,
      input: source,
      outDir: join(work, `out-${label}`),
      probe: info,
      onStills: async () => {
        stills = (performance.now() - started) / 1000;
      },
      onRenditions: async (done) => {
        if (Number.isNaN(firstPlayable)) firstPlayable = (performance.now() - started) / 1000;
        console.log(`  ${label}: ${done.map((r) => r.name).join(', ')} ready at ${((performance.now() - started) / 1000).toFixed(2)} s`);
      },
    });
    const total = (performance.now() - started) / 1000;
    results.push({ label, total, realtime: info.duration / total, firstPlayable, stills, renditions: result.renditions.map((r) => r.name) });
  }
} finally {
  if (!keep) await rm(work, { recursive: true, force: true });
  else console.log(`outputs kept in ${work}`);
}

console.log('\n| source | ladder | stills (s) | first playable (s) | total (s) | × realtime | bars |');
console.log('|---|---|---|---|---|---|---|');
let failed = false;
for (const r of results) {
  const bars = [];
  if (r.label === '720p') {
    const ok = r.realtime >= BARS.realtime720;
    failed ||= !ok;
    bars.push(`${ok ? 'PASS' : 'FAIL'} ≥ ${BARS.realtime720}× realtime`);
  }
  const playable = r.firstPlayable <= BARS.firstPlayable;
  failed ||= !playable;
  bars.push(`${playable ? 'PASS' : 'FAIL'} first playable ≤ ${BARS.firstPlayable} s`);
  console.log(
    `| ${r.label} | ${r.renditions.join(' ')} | ${r.stills.toFixed(2)} | ${r.firstPlayable.toFixed(2)} | ${r.total.toFixed(2)} | ${r.realtime.toFixed(2)}× | ${bars.join('; ')} |`,
  );
}
console.log('\nFirst playable counts from the end of the upload (job start): probe, stills, lowest rung, master playlist.');
console.log('Storage uploads are not included (local files); the worker adds them per rendition.');
process.exit(failed ? 1 : 0);
