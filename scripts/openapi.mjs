#!/usr/bin/env node
// Writes the public API description, as the gateway serves it at /api/openapi.json, to
// frontend/src/api/openapi.json, and the typed client's types to frontend/src/api/schema.gen.ts.
// The description is generated from the services' code (they run on a scratch database for it).
//   node scripts/openapi.mjs           write both files
//   node scripts/openapi.mjs --check   fail if either differs from what the code produces
// Needs the server packages built (`npx tsc -b`) and Postgres reachable.
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bin, root } from './lib.mjs';

const check = process.argv.includes('--check');
const load = (p) => import(pathToFileURL(path.join(root, p)).href);
const platform = await load('services/platform/dist/index.js');
const testing = await load('services/platform/dist/testing/index.js');
const { startAuthService } = await load('services/auth/dist/index.js');
const { startTimelinesService } = await load('services/timelines/dist/index.js');
const { startSocialService } = await load('services/social/dist/index.js');
const { startSearchService } = await load('services/search/dist/index.js');
const { startNotificationsService } = await load('services/notifications/dist/index.js');
const { startMediaService, RecordingProcessingQueue } = await load('services/media/dist/index.js');
const { createGateway, GatewayConfig } = await load('gateway/dist/index.js');

const documentFile = path.join(root, 'frontend/src/api/openapi.json');
const typesFile = path.join(root, 'frontend/src/api/schema.gen.ts');

async function storageIn(dataDir) {
  const storage = new platform.FsObjectStorage({ root: path.join(dataDir, 'storage') });
  await storage.init();
  return storage;
}

async function generateDocument() {
  const logger = platform.createLogger('openapi', 'silent');
  const db = await testing.createTestDatabase('openapi');
  const bus = await platform.createEventBus({ prefix: testing.testBusPrefix('openapi'), logger });
  const identitySecret = 'openapi-generation-only-'.padEnd(40, 'x');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'openapi-data-'));
  const mail = platform.createMailSender({ dataDir });
  const workQueue = await platform.createWorkQueue({ prefix: testing.testBusPrefix('openapi'), logger });
  const running = [];
  try {
    // Every service the gateway routes to, each on a loopback port of its own.
    const common = { databaseUrl: db.url, bus, logger, identitySecret, port: 0, host: '127.0.0.1' };
    const services = {};
    for (const [name, start, options] of [
      ['auth', startAuthService, {}],
      ['timelines', startTimelinesService, { mail }],
      ['social', startSocialService, {}],
      ['search', startSearchService, {}],
      ['notifications', startNotificationsService, { workQueue, vapid: { publicKey: 'openapi', privateKey: 'openapi', subject: 'mailto:openapi@example.com' } }],
      ['media', startMediaService, { storage: await storageIn(dataDir), processing: new RecordingProcessingQueue(), sweepIntervalMs: 0 }],
    ]) {
      const service = await start({ ...common, ...options });
      running.push(service);
      services[name] = service.url;
    }
    const config = platform.loadConfig(GatewayConfig, { PORT: '0', INTERNAL_PORT: '0', LOG_LEVEL: 'silent' });
    const gateway = await createGateway({ config, logger, bus, services, identitySecret, webDist: os.tmpdir() });
    running.push({ close: () => gateway.close() });
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    const { port } = gateway.getHttpAdapter().getInstance().server.address();
    const response = await fetch(`http://127.0.0.1:${port}/api/openapi.json`);
    if (!response.ok) throw new Error(`the gateway answered ${response.status} for /api/openapi.json`);
    return `${JSON.stringify(await response.json(), null, 2)}\n`;
  } finally {
    for (const r of running.reverse()) await r.close();
    await mail.close();
    await workQueue.close();
    await bus.close();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function generateTypes(documentPath) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
  const out = path.join(dir, 'schema.gen.ts');
  // The generator is the web app's dev dependency; npm may install it under frontend/.
  const generator = [bin('openapi-typescript'), path.join(root, 'frontend/node_modules/.bin/openapi-typescript')].find((p) => existsSync(p));
  if (!generator) throw new Error('openapi-typescript is not installed: run npm install');
  const result = spawnSync(generator, [documentPath, '-o', out], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`openapi-typescript failed:\n${result.stderr ?? result.error}`);
  const types = readFileSync(out, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  return types;
}

const document = await generateDocument();
const scratch = path.join(mkdtempSync(path.join(os.tmpdir(), 'openapi-doc-')), 'openapi.json');
writeFileSync(scratch, document);
const types = generateTypes(scratch);

if (check) {
  const stale = [
    [documentFile, document],
    [typesFile, types],
  ].filter(([file, fresh]) => readFileSync(file, 'utf8') !== fresh);
  if (stale.length > 0) {
    console.error(`Out of date with the code: ${stale.map(([f]) => path.relative(root, f)).join(', ')}\nRun: node scripts/openapi.mjs`);
    process.exit(1);
  }
  console.log('OpenAPI document and client types match the code');
} else {
  writeFileSync(documentFile, document);
  writeFileSync(typesFile, types);
  console.log(`wrote ${path.relative(root, documentFile)} and ${path.relative(root, typesFile)}`);
}
