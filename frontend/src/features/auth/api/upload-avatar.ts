import { api, formBody, unwrap, type ApiSchemas } from '../../../lib/api-client';

/** `avatar` is where the stored picture is served; it is saved with the profile next. */
export type UploadedAvatar = ApiSchemas['UploadedAvatarDto'];

/**
 * Stores a new profile picture (multipart, one field `file`). The server checks it by content
 * and makes it a square; the profile shows it once its address is saved with PUT /api/auth/profile.
 */
export function uploadAvatar(file: File): Promise<UploadedAvatar> {
  const form = new FormData();
  form.append('file', file, file.name);
  return unwrap(api.POST('/api/media/avatar', { body: formBody(form) }));
}
