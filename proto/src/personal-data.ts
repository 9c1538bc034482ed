/**
 * "Download your data": the request/reply every service that holds a person's data answers, and
 * the media worker's job that gathers it into one archive.
 */
import { ExportPersonalDataJobSchema } from './gen/timeliner/media/v1/data_export_pb.js';
import { PersonalDataPageReplySchema, PersonalDataPageRequestSchema } from './gen/timeliner/platform/v1/personal_data_pb.js';
import { defineEvent, defineRpc } from './define.js';

export const PersonalData = {
  /** One page of one section of a person's data as `service` holds it. Queue group: the service's name. */
  rpc: (service: string) => defineRpc(`${service}.personal_data.page`, 1, PersonalDataPageRequestSchema, PersonalDataPageReplySchema),
  /** The job that builds a person's archive on the media worker's queue. */
  ExportJob: defineEvent('media.job.data_export', 1, ExportPersonalDataJobSchema),
} as const;
