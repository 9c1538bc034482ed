import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { CommentReportContext, type CommentReporting } from '../../components/ui/comment-report';

// The feed's report dialog, asked for the first time someone reports a comment or a post.
const ReportDialog = lazy(() => import('../../features/feed/components/report-dialog').then((module) => ({ default: module.ReportDialog })));

const CommentReportDialog: CommentReporting['Dialog'] = ({ target, onClose }) => (
  <Suspense fallback={null}>
    <ReportDialog open onOpenChange={(open) => (open ? undefined : onClose())} target={target} />
  </Suspense>
);

/**
 * Report on other people's comments in every comment list of the signed-in app (posts, timelines,
 * the player's videos), and Report Post on other people's post cards, through the same report
 * dialog as timelines and videos.
 */
export function CommentReportingProvider({ viewerId, children }: { viewerId: string; children: ReactNode }) {
  const reporting = useMemo<CommentReporting>(() => ({ viewerId, Dialog: CommentReportDialog }), [viewerId]);
  return <CommentReportContext.Provider value={reporting}>{children}</CommentReportContext.Provider>;
}
