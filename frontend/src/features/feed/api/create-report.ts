import { useMutation } from '@tanstack/react-query';
import { api, unwrap, type ApiSchemas } from '../../../lib/api-client';
import { useFeedCache } from './feed-cache';
import type { CreateReport } from './types';

export type Report = ApiSchemas['ReportDto'];

/** Reports a post, a timeline or a single video (201, or 200 when the caller had already reported it). */
export function createReport(report: CreateReport): Promise<Report> {
  return unwrap(api.POST('/api/reports', { body: report }));
}

/** Once reported, the item leaves the caller's feed. */
export function useCreateReport({ onSuccess, onError }: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) {
  const cache = useFeedCache();
  return useMutation({
    mutationFn: createReport,
    onSuccess: (_answer, report) => {
      if (report.contentType !== 'video') cache.remove(report.contentType, report.contentId);
      onSuccess?.();
    },
    onError,
  });
}
