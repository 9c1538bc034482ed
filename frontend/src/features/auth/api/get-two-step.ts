import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type TwoStepStatus = ApiSchemas['TwoStepStatusDto'];

export const TWO_STEP_QUERY_KEY = ['auth', 'two-step'] as const;

export const getTwoStep = (): Promise<TwoStepStatus> => unwrap(api.GET('/api/auth/two-step'));

export const getTwoStepQueryOptions = () => queryOptions({ queryKey: TWO_STEP_QUERY_KEY, queryFn: getTwoStep });

/** Whether a code from an authenticator app is asked for at sign-in, and the recovery codes left. */
export const useTwoStep = () => useQuery(getTwoStepQueryOptions());
