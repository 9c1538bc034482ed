import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { blockedPeopleQueryKey } from './safety-keys';

export type FilteredPerson = ApiSchemas['FilteredPersonDto'];

/** The people the caller blocked, newest first (the first 100: the settings list). */
export function getBlockedPeople(): Promise<FilteredPerson[]> {
  return unwrap(api.GET('/api/blocks', { params: { query: { limit: 100 } } }));
}

export function getBlockedPeopleQueryOptions() {
  return queryOptions({ queryKey: blockedPeopleQueryKey, queryFn: getBlockedPeople });
}

export function useBlockedPeople() {
  return useQuery(getBlockedPeopleQueryOptions());
}
