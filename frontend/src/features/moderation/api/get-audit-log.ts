import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';

export type AuditEntry = ApiSchemas['AuditEntryDto'];

export const AUDIT_LOG_QUERY_KEY = ['moderation', 'audit'] as const;

/** The newest 50 entries of the audit log (GET /api/moderation/audit). */
export function getAuditLogQueryOptions() {
  return queryOptions({ queryKey: AUDIT_LOG_QUERY_KEY, queryFn: () => unwrap(api.GET('/api/moderation/audit', { params: { query: { limit: 50 } } })), retry: false });
}

export function useAuditLog(enabled: boolean) {
  return useQuery({ ...getAuditLogQueryOptions(), enabled });
}
