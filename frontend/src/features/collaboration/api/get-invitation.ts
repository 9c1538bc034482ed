import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { shouldRetry } from '../../../lib/react-query';

export type InvitationDetail = ApiSchemas['InvitationDetailDto'];

export const invitationQueryKey = (token: string) => ['collaboration', 'invitation', token] as const;

/** An invitation by the token in its link; works signed out. */
export function getInvitation(token: string): Promise<InvitationDetail> {
  return unwrap(api.GET('/api/invitations/{token}', { params: { path: { token } } }));
}

/** The server's answer for an expired invitation: 410, or a body flagged `expired`. */
export function isExpiredInvitationError(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 410) return true;
  try {
    const body: unknown = JSON.parse(error.body);
    return typeof body === 'object' && body !== null && 'expired' in body && body.expired === true;
  } catch {
    return false;
  }
}

export function getInvitationQueryOptions(token: string) {
  return queryOptions({
    queryKey: invitationQueryKey(token),
    queryFn: () => getInvitation(token),
    // An invalid, used or expired link stays so: only failures to reach the server are retried.
    retry: (failureCount, error) =>
      !(error instanceof ApiError && error.status >= 400 && error.status < 500) && shouldRetry(failureCount, error),
  });
}

export function useInvitation(token: string) {
  return useQuery(getInvitationQueryOptions(token));
}
