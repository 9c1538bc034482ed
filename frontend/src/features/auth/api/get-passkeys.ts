import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type PasskeyInfo = ApiSchemas['PasskeyDto'];

export const PASSKEYS_QUERY_KEY = ['auth', 'passkeys'] as const;

export const getPasskeys = (): Promise<PasskeyInfo[]> => unwrap(api.GET('/api/auth/passkeys'));

export const getPasskeysQueryOptions = () => queryOptions({ queryKey: PASSKEYS_QUERY_KEY, queryFn: getPasskeys });

/** One's passkeys, oldest first. */
export const usePasskeys = () => useQuery(getPasskeysQueryOptions());
