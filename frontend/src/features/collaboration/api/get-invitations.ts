import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type Invitation = ApiSchemas['InvitationDto'];

export const invitationsQueryKey = (timelineId: string) => ['collaboration', 'invitations', timelineId] as const;

export function getInvitations(timelineId: string): Promise<Invitation[]> {
  return unwrap(api.GET('/api/timelines/{id}/invitations', { params: { path: { id: timelineId } } }));
}

export function getInvitationsQueryOptions(timelineId: string) {
  return queryOptions({ queryKey: invitationsQueryKey(timelineId), queryFn: () => getInvitations(timelineId) });
}

export function useInvitations(timelineId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getInvitationsQueryOptions(timelineId), enabled });
}
