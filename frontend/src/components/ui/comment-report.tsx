import { createContext, useContext, useState, type ComponentType } from 'react';

/** The kinds of comment a person may report (POST /api/reports). */
export type ReportableComment = 'post_comment' | 'timeline_comment' | 'video_comment';
/** What the shell's report dialog takes: a comment, or a text post (a post card's Report Post). */
export type ReportableContent = ReportableComment | 'post';

/** What a comment list (or a post card) needs to offer Report: who is signed in, and the report dialog. */
export interface CommentReporting {
  /** The signed-in person: their own comments and posts get no Report. */
  viewerId: string;
  /** The page's report dialog (asks why, sends the report, says how it went); closed through onClose. */
  Dialog: ComponentType<{ target: { contentType: ReportableContent; contentId: string }; onClose: () => void }>;
}

/**
 * Given by the signed-in shell, so every comment list (posts, timelines, the player's videos)
 * offers the same Report, and every post card its Report Post; absent elsewhere (signed out, a
 * component on its own), where none is shown.
 */
export const CommentReportContext = createContext<CommentReporting | null>(null);

/** Whether the viewer may report a comment or post by this author: signed in, and not their own. */
export function useCanReport(): (authorId: string | null | undefined) => boolean {
  const reporting = useContext(CommentReportContext);
  return (authorId) => reporting !== null && Boolean(authorId) && authorId !== reporting.viewerId;
}

export interface ReportCommentButtonProps {
  contentType: ReportableComment;
  commentId: string;
  /** The comment's author: no Report on one's own comment. */
  authorId: string | null | undefined;
  /** The author's name, for the button's accessible name. */
  name: string;
  className?: string;
}

/** "Report" on someone else's comment, opening the report dialog for it; nothing on one's own. */
export function ReportCommentButton({ contentType, commentId, authorId, name, className = 'link-button' }: ReportCommentButtonProps) {
  const reporting = useContext(CommentReportContext);
  const canReport = useCanReport();
  const [open, setOpen] = useState(false);
  if (!reporting || !canReport(authorId)) return null;
  const { Dialog } = reporting;
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)} aria-label={`Report comment from ${name}`}>
        Report
      </button>
      {open ? <Dialog target={{ contentType, contentId: commentId }} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
