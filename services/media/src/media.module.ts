import { type DynamicModule, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { type EventBus, EventWriter, type IdentitySecret, type ObjectStorage, type StaffRoles, type TimelineAccess, Transactions } from '@timeliner/platform';
import { AltTextController, MissingAltTextController } from './alt-text/alt-text.controller.js';
import { AltTextService } from './alt-text/alt-text.service.js';
import { AvatarsController } from './avatars/avatars.controller.js';
import { AvatarRepository } from './avatars/avatars.repository.js';
import { AvatarsService } from './avatars/avatars.service.js';
import { CaptionsController } from './captions/captions.controller.js';
import { CaptionsRepository } from './captions/captions.repository.js';
import { CaptionsService } from './captions/captions.service.js';
import { type DataExportQueue, RecordingDataExportQueue } from './data-exports/data-export-queue.js';
import { DataExportsController } from './data-exports/data-exports.controller.js';
import { DataExportRepository } from './data-exports/data-exports.repository.js';
import { DataExportsService } from './data-exports/data-exports.service.js';
import { ExportDownloads } from './exports/export-downloads.js';
import type { ExportQueue } from './exports/export-queue.js';
import { ExportFileController, TimelineExportController } from './exports/exports.controller.js';
import { ExportRepository } from './exports/exports.repository.js';
import { type ExportsOptions, ExportsService } from './exports/exports.service.js';
import { MediaFileController, TimelineMediaController, VideoController } from './media/media.controller.js';
import { MediaRepository } from './media/media.repository.js';
import { MediaService } from './media/media.service.js';
import { MediaUrlSigner } from './media/media-urls.js';
import type { ProcessingQueue } from './queue/processing-queue.js';
import { StorageController } from './storage/storage.controller.js';
import { StorageQuota } from './storage/storage-quota.js';
import { StorageSweep, type StorageSweepOptions } from './storage/storage-sweep.js';
import { StorageUsageRepository } from './storage/storage-usage.repository.js';
import { SimpleUploads } from './uploads/simple-uploads.js';
import { TusController } from './uploads/tus.controller.js';
import { type TusUploadOptions, TusUploads } from './uploads/tus-uploads.js';
import { UploadCompletion } from './uploads/upload-completion.js';
import { UploadSessionRepository } from './uploads/upload-session.repository.js';

export interface MediaModuleDeps {
  dataSource: DataSource;
  events: EventWriter;
  storage: ObjectStorage;
  access: TimelineAccess;
  /** Who is staff (SocialRpc.StaffRole): they see hidden media in context, read-only. Without it nobody is. */
  staff?: StaffRoles;
  /** Where processing jobs go (with the turns between people, `FairProcessing`). */
  processing: ProcessingQueue;
  exportQueue: ExportQueue;
  /** Where "Download your data" jobs go; default recorded only (the archives stay queued). */
  dataExportQueue?: DataExportQueue;
  bus: EventBus;
  logger: Logger;
  identitySecret: IdentitySecret;
  settings: {
    /** Media of one person that may wait for processing before their next upload is refused. */
    maxPendingPerPerson: number;
    storageQuotaBytes: number;
    uploads?: TusUploadOptions;
    exports?: ExportsOptions;
    sweep?: StorageSweepOptions;
  };
}

const STORAGE = Symbol('ObjectStorage');
const ACCESS = Symbol('TimelineAccess');
const PROCESSING = Symbol('ProcessingQueue');
const EXPORT_QUEUE = Symbol('ExportQueue');
const DATA_EXPORT_QUEUE = Symbol('DataExportQueue');
const BUS = Symbol('EventBus');
const LOGGER = Symbol('Logger');

/** The media API: timeline media lists and writes, objects, resumable and simple uploads, exports, profile pictures. */
@Module({})
export class MediaModule {
  static forRoot(deps: MediaModuleDeps): DynamicModule {
    const { settings } = deps;
    return {
      module: MediaModule,
      controllers: [TusController, TimelineMediaController, VideoController, MediaFileController, TimelineExportController, ExportFileController, DataExportsController, AvatarsController, StorageController, CaptionsController, AltTextController, MissingAltTextController],
      providers: [
        { provide: DataSource, useValue: deps.dataSource },
        { provide: EventWriter, useValue: deps.events },
        { provide: STORAGE, useValue: deps.storage },
        { provide: ACCESS, useValue: deps.access },
        { provide: PROCESSING, useValue: deps.processing },
        { provide: EXPORT_QUEUE, useValue: deps.exportQueue },
        { provide: DATA_EXPORT_QUEUE, useValue: deps.dataExportQueue ?? new RecordingDataExportQueue() },
        { provide: BUS, useValue: deps.bus },
        { provide: LOGGER, useValue: deps.logger },
        { provide: Transactions, useFactory: (ds: DataSource) => new Transactions(ds), inject: [DataSource] },
        { provide: MediaRepository, useFactory: (ds: DataSource) => new MediaRepository(ds), inject: [DataSource] },
        { provide: UploadSessionRepository, useFactory: (ds: DataSource) => new UploadSessionRepository(ds), inject: [DataSource] },
        { provide: ExportRepository, useFactory: (ds: DataSource) => new ExportRepository(ds), inject: [DataSource] },
        { provide: AvatarRepository, useFactory: (ds: DataSource) => new AvatarRepository(ds), inject: [DataSource] },
        { provide: DataExportRepository, useFactory: (ds: DataSource) => new DataExportRepository(ds), inject: [DataSource] },
        { provide: CaptionsRepository, useFactory: (ds: DataSource) => new CaptionsRepository(ds), inject: [DataSource] },
        { provide: StorageUsageRepository, useFactory: (ds: DataSource) => new StorageUsageRepository(ds), inject: [DataSource] },
        { provide: MediaUrlSigner, useFactory: () => new MediaUrlSigner(deps.identitySecret) },
        { provide: StorageQuota, useFactory: (stored: StorageUsageRepository) => new StorageQuota(stored, settings.storageQuotaBytes), inject: [StorageUsageRepository] },
        {
          provide: UploadCompletion,
          useFactory: (media: MediaRepository, events: EventWriter, processing: ProcessingQueue, bus: EventBus, logger: Logger) =>
            new UploadCompletion(media, events, processing, bus, logger, settings.maxPendingPerPerson),
          inject: [MediaRepository, EventWriter, PROCESSING, BUS, LOGGER],
        },
        {
          provide: TusUploads,
          useFactory: (
            sessions: UploadSessionRepository, media: MediaRepository, transactions: Transactions, storage: ObjectStorage, access: TimelineAccess,
            completion: UploadCompletion, logger: Logger, quota: StorageQuota,
          ) => new TusUploads(sessions, media, transactions, storage, access, completion, logger, quota, settings.uploads),
          inject: [UploadSessionRepository, MediaRepository, Transactions, STORAGE, ACCESS, UploadCompletion, LOGGER, StorageQuota],
        },
        {
          provide: SimpleUploads,
          useFactory: (transactions: Transactions, storage: ObjectStorage, access: TimelineAccess, completion: UploadCompletion, logger: Logger, quota: StorageQuota) =>
            new SimpleUploads(transactions, storage, access, completion, logger, quota),
          inject: [Transactions, STORAGE, ACCESS, UploadCompletion, LOGGER, StorageQuota],
        },
        {
          provide: MediaService,
          useFactory: (media: MediaRepository, transactions: Transactions, storage: ObjectStorage, access: TimelineAccess, events: EventWriter, logger: Logger, urls: MediaUrlSigner) =>
            new MediaService(media, transactions, storage, access, events, logger, urls, deps.staff),
          inject: [MediaRepository, Transactions, STORAGE, ACCESS, EventWriter, LOGGER, MediaUrlSigner],
        },
        {
          provide: AltTextService,
          useFactory: (media: MediaRepository, access: TimelineAccess, service: MediaService, transactions: Transactions, events: EventWriter) =>
            new AltTextService(media, access, service, transactions, events),
          inject: [MediaRepository, ACCESS, MediaService, Transactions, EventWriter],
        },
        {
          provide: CaptionsService,
          useFactory: (captions: CaptionsRepository, media: MediaRepository, transactions: Transactions, access: TimelineAccess, events: EventWriter, urls: MediaUrlSigner) =>
            new CaptionsService(captions, media, transactions, access, events, urls),
          inject: [CaptionsRepository, MediaRepository, Transactions, ACCESS, EventWriter, MediaUrlSigner],
        },
        {
          provide: ExportsService,
          useFactory: (
            exports: ExportRepository, media: MediaRepository, transactions: Transactions, storage: ObjectStorage, access: TimelineAccess, queue: ExportQueue,
            urls: MediaUrlSigner, logger: Logger,
          ) => new ExportsService(exports, media, transactions, storage, access, queue, urls, logger, settings.exports),
          inject: [ExportRepository, MediaRepository, Transactions, STORAGE, ACCESS, EXPORT_QUEUE, MediaUrlSigner, LOGGER],
        },
        {
          provide: ExportDownloads,
          useFactory: (exports: ExportRepository, transactions: Transactions, events: EventWriter, logger: Logger) => new ExportDownloads(exports, transactions, events, deps.identitySecret, logger),
          inject: [ExportRepository, Transactions, EventWriter, LOGGER],
        },
        {
          provide: DataExportsService,
          useFactory: (exports: DataExportRepository, transactions: Transactions, storage: ObjectStorage, queue: DataExportQueue, urls: MediaUrlSigner, logger: Logger) =>
            new DataExportsService(exports, transactions, storage, queue, urls, logger),
          inject: [DataExportRepository, Transactions, STORAGE, DATA_EXPORT_QUEUE, MediaUrlSigner, LOGGER],
        },
        { provide: AvatarsService, useFactory: (avatars: AvatarRepository, storage: ObjectStorage, logger: Logger) => new AvatarsService(avatars, storage, logger), inject: [AvatarRepository, STORAGE, LOGGER] },
        {
          provide: StorageSweep,
          useFactory: (media: MediaRepository, storage: ObjectStorage, logger: Logger) => new StorageSweep(media, storage, logger, settings.sweep),
          inject: [MediaRepository, STORAGE, LOGGER],
        },
      ],
    };
  }
}
