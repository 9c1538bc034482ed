// The media service in a process of its own, so a test can kill -9 it mid-upload and start
// another on the same database and storage directory. Runs the built code (`npx tsc -b` first).
// Configuration comes as JSON in MEDIA_PROCESS_CONFIG: { databaseUrl, natsUrl, prefix, secret,
// storageDir }. Prints {"url": ...} once listening.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '../../../..');
const load = (p) => import(pathToFileURL(path.join(root, p)).href);
const platform = await load('services/platform/dist/index.js');
const { RecordingProcessingQueue, startMediaService } = await load('services/media/dist/index.js');

const config = JSON.parse(process.env.MEDIA_PROCESS_CONFIG);
const logger = platform.createLogger('media-child', process.env.TEST_LOG_LEVEL ?? 'silent');
const bus = await platform.createEventBus({ natsUrl: config.natsUrl, prefix: config.prefix, logger });
const storage = new platform.FsObjectStorage({ root: config.storageDir });
await storage.init();
const service = await startMediaService({
  databaseUrl: config.databaseUrl,
  bus,
  logger,
  identitySecret: config.secret,
  port: 0,
  host: '127.0.0.1',
  storage,
  processing: new RecordingProcessingQueue(),
  sweepIntervalMs: 0,
});
process.stdout.write(`${JSON.stringify({ url: service.url })}\n`);
process.on('SIGTERM', async () => {
  await service.close();
  await bus.close();
  process.exit(0);
});
