import { busEntities, personLimitEntities } from '@timeliner/platform';
import { Avatar } from './avatars/avatar.entity.js';
import { DataExport } from './data-exports/data-export.entity.js';
import { VideoCaption } from './captions/caption.entity.js';
import { Export } from './exports/export.entity.js';
import { Media } from './media/media.entity.js';
import { StorageUsage } from './storage/storage-usage.entity.js';
import { UploadSession } from './uploads/upload-session.entity.js';

export const mediaEntities = [Media, UploadSession, Export, DataExport, Avatar, StorageUsage, VideoCaption, ...busEntities, ...personLimitEntities];
