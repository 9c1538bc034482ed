import { busEntities } from '@timeliner/platform';
import { Avatar } from './avatars/avatar.entity.js';
import { Export } from './exports/export.entity.js';
import { Media } from './media/media.entity.js';
import { UploadSession } from './uploads/upload-session.entity.js';

export const mediaEntities = [Media, UploadSession, Export, Avatar, ...busEntities];
