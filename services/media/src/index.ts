export { MediaConfig } from './media.config.js';
export { schema as mediaSchema } from './schema.js';
export { CONSUMER_GROUP, type MediaServiceOptions, type RunningMediaService, startMediaService } from './service.js';
export { type ProcessingQueue, type ProcessMediaJob, RecordingProcessingQueue } from './queue/processing-queue.js';
export { WorkQueueProcessing } from './queue/work-queue-processing.js';
export { type ExportJob, type ExportQueue, RecordingExportQueue, WorkQueueExports } from './exports/export-queue.js';
