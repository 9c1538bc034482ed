import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type Collaborator = ApiSchemas['CollaboratorDto'];

export const collaboratorsQueryKey = (timelineId: string) => ['collaboration', 'collaborators', timelineId] as const;

export function getCollaborators(timelineId: string): Promise<Collaborator[]> {
  return unwrap(api.GET('/api/timelines/{id}/collaborators', { params: { path: { id: timelineId } } }));
}

export function getCollaboratorsQueryOptions(timelineId: string) {
  return queryOptions({ queryKey: collaboratorsQueryKey(timelineId), queryFn: () => getCollaborators(timelineId) });
}

export function useCollaborators(timelineId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getCollaboratorsQueryOptions(timelineId), enabled });
}
