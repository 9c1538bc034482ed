import { ForbiddenException, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { AUTHENTICATION_REQUIRED, type Caller, requireVisible, TIMELINE_NOT_FOUND, type TimelineAccess, type TimelineAccessAnswer, type TimelineAccessOptions } from '@timeliner/platform';

export const MEDIA_NOT_FOUND = 'Video not found';
export const EDITORS_ONLY = 'Only the owner and editors can change the media of this timeline';
export const UPLOADERS_ONLY = 'Only the owner and editors can upload to this timeline';

/**
 * The media policy, on top of the timelines service's answer:
 *
 * - Whoever may see the timeline may read its media (lists, originals, renditions, thumbnails):
 *   anonymous callers too, for published public and unlisted timelines.
 * - Someone who may not see it: an anonymous caller is told to sign in (401), a signed-in one
 *   that it does not exist (404). Both answers are the same whether the timeline (or the media)
 *   exists or not, so a private timeline's existence is never revealed; spec 000's client hides
 *   media answering 401 or 403.
 * - Changing media (upload, rename, reorder, delete) needs the owner or an editor: others who may
 *   see the timeline get 403.
 */
export function hidden(caller: Caller, message: string): Error {
  return caller.userId ? new NotFoundException(message) : new UnauthorizedException(AUTHENTICATION_REQUIRED);
}

/** `options.inContext` for reads only (lists, files): staff then see a timeline the moderators took out, read-only. */
export function requireView(access: TimelineAccess, caller: Caller, timelineId: string, notFound = TIMELINE_NOT_FOUND, options?: TimelineAccessOptions): Promise<TimelineAccessAnswer> {
  return requireVisible(access, timelineId, caller.userId, () => hidden(caller, notFound), options);
}

export async function requireEdit(access: TimelineAccess, caller: Caller, timelineId: string, options: { notFound?: string; forbidden?: string } = {}): Promise<TimelineAccessAnswer> {
  if (!caller.userId) throw new UnauthorizedException(AUTHENTICATION_REQUIRED);
  const answer = await requireView(access, caller, timelineId, options.notFound);
  if (!answer.canEdit) throw new ForbiddenException(options.forbidden ?? EDITORS_ONLY);
  return answer;
}
