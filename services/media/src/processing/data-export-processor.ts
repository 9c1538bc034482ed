import { Readable, Transform } from 'node:stream';
import { type EventBus, type Job, type Logger, type ObjectStorage, personalDataRecords } from '@timeliner/platform';
import type { ExportPersonalDataJob } from '@timeliner/proto';
import { ZipFile } from 'yazl';
import type { DataExportPhase } from '../data-exports/data-export.entity.js';
import type { ArchivedOriginal, DataExportRepository } from '../data-exports/data-exports.repository.js';
import { dataExportKey } from '../storage/object-keys.js';
import { ProcessingFailure } from './failures.js';

export const GENERIC_DATA_EXPORT_FAILURE = 'Your data could not be gathered; please try again';
/** How long the link and the file last once the archive is made. */
export const DATA_EXPORT_TTL_MS = 7 * 24 * 3_600_000;

/** One JSON file of the archive: which service holds its records, under which section. */
interface JsonSection {
  file: string;
  service: string;
  section: string;
}

/**
 * The archive's JSON files, in the order they are written. `timelines.json` (the person's timelines
 * with their items, in order) and `settings.json` are made apart: each joins two sources.
 */
const SECTIONS: readonly JsonSection[] = [
  { file: 'posts.json', service: 'social', section: 'posts' },
  { file: 'comments.json', service: 'social', section: 'comments' },
  { file: 'likes.json', service: 'social', section: 'likes' },
  { file: 'bookmarks.json', service: 'social', section: 'bookmarks' },
  { file: 'collections.json', service: 'social', section: 'collections' },
  { file: 'following.json', service: 'social', section: 'following' },
  { file: 'followers.json', service: 'social', section: 'followers' },
  { file: 'collaborations.json', service: 'timelines', section: 'collaborations' },
];

/** Share of the percentage the records take; the original files take the rest up to 99. */
const RECORDS_SHARE = 10;
const PROGRESS_INTERVAL_MS = 1_000;
const ORIGINALS_PAGE = 200;
const TIMELINES_BATCH = 50;

export interface DataExportProcessorDeps {
  exports: DataExportRepository;
  storage: ObjectStorage;
  bus: EventBus;
  logger: Logger;
  /** How long one page of records may take to come from a service; default 10 s. */
  rpcTimeoutMs?: number;
  now?: () => Date;
}

/** An original's path in the archive: `media/<timeline>/<media id>-<its name, plain characters only>`. */
export function archivedFileName(original: Pick<ArchivedOriginal, 'id' | 'timelineId' | 'originalName'>): string {
  const name = original.originalName.replace(/[^A-Za-z0-9._-]/gu, '_').replace(/^\.+/u, '').slice(-100) || 'file';
  return `media/${original.timelineId}/${original.id}-${name}`;
}

/** A readable of bytes made by an async generator, read only when the archive reaches it. */
const bytes = (source: AsyncIterable<string | Buffer>): Readable => Readable.from(source, { objectMode: false });

/** A JSON array, one record a line, from records that are JSON text already. */
async function* jsonArray(records: AsyncIterable<string>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const record of records) {
    yield `${first ? '\n  ' : ',\n  '}${record}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}

/**
 * Builds a person's "Download your data" archive as one ZIP, streamed: each service's records
 * come page by page over the bus (`PersonalData.rpc`), the original files straight from storage,
 * and the ZIP goes into storage as it is written; nothing holds more than a page or a chunk. The
 * row shows the phase and percentage (the settings page polls it); the link lasts seven days.
 */
export class DataExportProcessor {
  constructor(private readonly deps: DataExportProcessorDeps) {}

  async process(job: Job<ExportPersonalDataJob>): Promise<{ skipped: boolean; bytes: number; files: number }> {
    const { exports, storage, logger } = this.deps;
    const { exportId, userId } = job.payload;
    const row = await exports.find(exportId);
    if (!row || row.userId !== userId || !(await exports.start(exportId))) return { skipped: true, bytes: 0, files: 0 };

    let phase: DataExportPhase = 'records';
    let percent = 0;
    let reportedAt = 0;
    let reporting: Promise<void> = Promise.resolve();
    const report = (next: DataExportPhase, value: number, force = false) => {
      phase = next;
      percent = Math.max(percent, Math.min(99, Math.floor(value)));
      const now = Date.now();
      if (!force && now - reportedAt < PROGRESS_INTERVAL_MS) return;
      reportedAt = now;
      job.working();
      const [sent, sentPercent] = [phase, percent];
      reporting = reporting.then(() => exports.setProgress(exportId, sent, sentPercent)).catch((err: unknown) => logger.warn({ err, exportId }, 'data export progress not saved'));
    };

    const zip = new ZipFile();
    // yazl's output is a PassThrough (typed as the older ReadableStream interface).
    const output = zip.outputStream as unknown as Readable;
    let failure: unknown;
    const fail = (error: unknown) => {
      failure ??= error;
      output.destroy(error instanceof Error ? error : new Error(String(error)));
    };
    zip.on('error', fail);
    const onAbort = () => fail(new Error('The worker is stopping'));
    job.signal.addEventListener('abort', onAbort, { once: true });
    const key = dataExportKey(exportId, row.fileName);
    const stored = storage.put(key, output, { contentType: 'application/zip' });
    stored.catch(() => undefined);

    try {
      const sectionCount = SECTIONS.length + 3;
      const started = (index: number) => () => report('records', (RECORDS_SHARE * index) / sectionCount, index === 0);
      const addJson = (file: string, index: number, records: () => AsyncIterable<string>) => {
        zip.addReadStreamLazy(file, { mtime: new Date() }, (cb) => {
          started(index)();
          const stream = bytes(jsonArray(records()));
          stream.on('error', fail);
          cb(null, stream);
        });
      };
      const records = (service: string, section: string) => personalDataRecords(this.deps.bus, service, section, userId, this.rpcOptions());

      // The profile: one object, not an array.
      zip.addReadStreamLazy('profile.json', { mtime: new Date() }, (cb) => {
        started(0)();
        const stream = bytes((async function* () {
          for await (const profile of records('auth', 'profile')) yield `${profile}\n`;
        })());
        stream.on('error', fail);
        cb(null, stream);
      });
      zip.addReadStreamLazy('settings.json', { mtime: new Date() }, (cb) => {
        started(1)();
        const stream = bytes((async function* () {
          yield '{\n  "notifications": ';
          yield* jsonArray(records('notifications', 'settings'));
          yield '}\n';
        })());
        stream.on('error', fail);
        cb(null, stream);
      });
      addJson('timelines.json', 2, () => this.timelinesWithItems(userId));
      SECTIONS.forEach((section, index) => addJson(section.file, index + 3, () => records(section.service, section.section)));

      // The originals the person uploaded, each read from storage only when the archive reaches it.
      const totalBytes = Math.max(1, await exports.originalBytesOf(userId));
      let copied = 0;
      let files = 0;
      const missing: string[] = [];
      let after: string | null = null;
      for (;;) {
        const page = await exports.originalsOf(userId, after, ORIGINALS_PAGE);
        for (const original of page) {
          const info = await storage.stat(original.objectKey);
          if (!info) {
            missing.push(archivedFileName(original));
            continue;
          }
          files += 1;
          zip.addReadStreamLazy(archivedFileName(original), { compress: false, size: info.size, mtime: info.lastModified }, (cb) => {
            storage.get(original.objectKey).then(
              (source) => {
                const counted = new Transform({
                  transform(chunk: Buffer, _encoding, done) {
                    copied += chunk.length;
                    report('files', RECORDS_SHARE + ((99 - RECORDS_SHARE) * copied) / totalBytes);
                    done(null, chunk);
                  },
                });
                source.on('error', fail);
                counted.on('error', fail);
                cb(null, source.pipe(counted));
              },
              // Gone since it was looked at (deleted meanwhile): the attempt fails, the next one leaves it out.
              (error: unknown) => cb(error, null as never),
            );
          });
        }
        if (page.length < ORIGINALS_PAGE) break;
        after = page[page.length - 1]!.id;
      }
      zip.addBuffer(Buffer.from(readme(new Date(), files, missing)), 'README.txt', { mtime: new Date() });
      zip.end();
      const info = await stored;
      if (failure) throw failure;
      report('finishing', 99, true);
      await reporting;
      const completedAt = this.deps.now?.() ?? new Date();
      await exports.complete(exportId, key, info.size, completedAt, new Date(completedAt.getTime() + DATA_EXPORT_TTL_MS));
      return { skipped: false, bytes: info.size, files };
    } catch (error) {
      await stored.catch(() => undefined);
      await storage.delete(key).catch(() => undefined);
      throw failure ?? error;
    } finally {
      job.signal.removeEventListener('abort', onAbort);
      await reporting;
    }
  }

  /** The job is given up: the archive becomes `error`, with a sentence the person can read. */
  async fail(job: Job<ExportPersonalDataJob>, error: unknown): Promise<void> {
    const reason = error instanceof ProcessingFailure ? error.reason : GENERIC_DATA_EXPORT_FAILURE;
    await this.deps.exports.fail(job.payload.exportId, reason);
  }

  private rpcOptions() {
    return this.deps.rpcTimeoutMs ? { timeoutMs: this.deps.rpcTimeoutMs } : {};
  }

  /** The person's timelines (timelines service), each with its items' metadata in the timeline's order (this service's media rows). */
  private async *timelinesWithItems(userId: string): AsyncGenerator<string> {
    let batch: Array<Record<string, unknown> & { id: string }> = [];
    const flush = async function* (this: DataExportProcessor): AsyncGenerator<string> {
      const items = await this.deps.exports.itemsOf(batch.map((timeline) => timeline.id));
      for (const timeline of batch) {
        const own = items
          .filter((item) => item.timelineId === timeline.id)
          .map(({ timelineId: _timeline, hasOriginal, uploaderId, ...item }) => ({
            ...item,
            uploadedByYou: uploaderId === userId,
            file: hasOriginal && uploaderId === userId ? archivedFileName({ id: item.id as string, timelineId: timeline.id, originalName: item.originalName as string }) : null,
          }));
        yield JSON.stringify({ ...timeline, items: own });
      }
      batch = [];
    };
    for await (const record of personalDataRecords(this.deps.bus, 'timelines', 'timelines', userId, this.rpcOptions())) {
      batch.push(JSON.parse(record) as Record<string, unknown> & { id: string });
      if (batch.length >= TIMELINES_BATCH) yield* flush.call(this);
    }
    if (batch.length > 0) yield* flush.call(this);
  }
}

function readme(at: Date, files: number, missing: string[]): string {
  const lines = [
    'Your Timeliner data',
    `Gathered on ${at.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
    '',
    'profile.json        your profile and account settings',
    'settings.json       your notification settings',
    'timelines.json      the timelines you made, each with its items in the timeline\'s order',
    'posts.json          your posts',
    'comments.json       your comments on posts, timelines and videos',
    'likes.json          what you liked',
    'bookmarks.json      what you bookmarked',
    'collections.json    your collections and the timelines in them, in order',
    'following.json      the people you follow',
    'followers.json      the people who follow you',
    'collaborations.json other people\'s timelines you work on',
    `media/              the original files you uploaded (${files}), by timeline; timelines.json names each item's file`,
  ];
  if (missing.length > 0) lines.push('', 'These files could not be found in storage and are not included:', ...missing.map((name) => `  ${name}`));
  return `${lines.join('\n')}\n`;
}
