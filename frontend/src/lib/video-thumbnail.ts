import { useQuery } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { getAuthToken } from './auth-token';

/**
 * A video's thumbnail as a Blob. It is fetched with the bearer token (an <img> cannot send one),
 * so private timelines show their pictures too. Fresh for 30 s (spec 001, section 9).
 */
export async function getVideoThumbnail(url: string): Promise<Blob> {
  const headers = new Headers();
  const token = getAuthToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const response = await fetch(url.startsWith('/') ? `${window.location.origin}${url}` : url, { headers, credentials: 'include' });
  if (!response.ok) throw new ApiError(response.status, response.statusText, await response.text().catch(() => ''), response.headers);
  return response.blob();
}

export function useVideoThumbnail(url: string | null | undefined) {
  return useQuery({
    queryKey: ['media', 'thumbnail', url] as const,
    queryFn: () => getVideoThumbnail(url ?? ''),
    enabled: Boolean(url),
    staleTime: 30_000,
    retry: false,
  });
}
