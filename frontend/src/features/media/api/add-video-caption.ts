import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, formBody, unwrap } from '../../../lib/api-client';
import { type CaptionTrack, videoCaptionsQueryKey } from './get-video-captions';

/** Adds (or replaces) a video's captions in one language: a WebVTT or SRT file, checked by the server. */
export function addVideoCaption(videoId: string, language: string, file: File): Promise<CaptionTrack> {
  const form = new FormData();
  // The language goes first: the server reads it before the file.
  form.append('language', language);
  form.append('file', file, file.name);
  return unwrap(api.POST('/api/videos/{id}/captions', { params: { path: { id: videoId } }, body: formBody(form) }));
}

export function useAddVideoCaption(videoId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ language, file }: { language: string; file: File }) => addVideoCaption(videoId, language, file),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: videoCaptionsQueryKey(videoId) }),
  });
}
