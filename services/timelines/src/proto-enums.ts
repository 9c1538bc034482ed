import { CollaboratorRole as ProtoRole, TimelineStatus as ProtoStatus, Visibility as ProtoVisibility } from '@timeliner/proto';
import type { CollaboratorRole } from './collaborators/collaborator.entity.js';
import type { TimelineStatus, Visibility } from './timelines/timeline.entity.js';

/** The API's words for roles, visibilities and statuses, as the contracts' enums. */
export const protoRole = (role: CollaboratorRole | null): ProtoRole =>
  role === 'owner' ? ProtoRole.OWNER : role === 'editor' ? ProtoRole.EDITOR : role === 'viewer' ? ProtoRole.VIEWER : ProtoRole.UNSPECIFIED;

export const protoVisibility = (visibility: Visibility): ProtoVisibility =>
  visibility === 'public' ? ProtoVisibility.PUBLIC : visibility === 'unlisted' ? ProtoVisibility.UNLISTED : ProtoVisibility.PRIVATE;

export const protoStatus = (status: TimelineStatus): ProtoStatus =>
  status === 'published' ? ProtoStatus.PUBLISHED : status === 'processing' ? ProtoStatus.PROCESSING : ProtoStatus.DRAFT;
