import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { FilteredPerson } from './get-blocked-people';
import { mutedPeopleQueryKey } from './safety-keys';

/** The people the caller muted, newest first (the first 100: the settings list). */
export function getMutedPeople(): Promise<FilteredPerson[]> {
  return unwrap(api.GET('/api/mutes', { params: { query: { limit: 100 } } }));
}

export function getMutedPeopleQueryOptions() {
  return queryOptions({ queryKey: mutedPeopleQueryKey, queryFn: getMutedPeople });
}

export function useMutedPeople() {
  return useQuery(getMutedPeopleQueryOptions());
}
