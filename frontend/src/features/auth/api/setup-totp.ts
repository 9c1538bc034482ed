import { useMutation } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type TotpSetup = ApiSchemas['TotpSetupDto'];

export const setupTotp = (): Promise<TotpSetup> => unwrap(api.POST('/api/auth/two-step/totp/setup'));

/** A new secret for an authenticator app, shown this once. */
export const useSetupTotp = () => useMutation({ mutationFn: setupTotp });
