import { useMutation } from '@tanstack/react-query';
import { api, type ApiSchemas } from '../../../lib/api-client';
import { useFeedCache } from './feed-cache';
import type { CreateReport } from './types';

export type Report = ApiSchemas['ReportDto'];

/** The server's answer: the report, and whether it was filed now (false: the caller had already reported the item). */
export interface FiledReport {
  report: Report;
  created: boolean;
}

/**
 * Reports a post, a timeline, a single video or image, or a comment: 201 when filed, 200 with the
 * first report, unchanged, when the caller had already reported it.
 */
export async function createReport(report: CreateReport): Promise<FiledReport> {
  const { data, response } = await api.POST('/api/reports', { body: report });
  return { report: data as Report, created: response.status === 201 };
}

/** Once reported, a post or timeline leaves the caller's feed. */
export function useCreateReport({ onSuccess, onError }: { onSuccess?: (answer: FiledReport) => void; onError?: (error: Error) => void } = {}) {
  const cache = useFeedCache();
  return useMutation({
    mutationFn: createReport,
    onSuccess: (answer, report) => {
      if (report.contentType === 'post' || report.contentType === 'timeline') cache.remove(report.contentType, report.contentId);
      onSuccess?.(answer);
    },
    onError,
  });
}
