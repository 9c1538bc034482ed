import { useState } from 'react';
import { CommentTextWithTimes } from './comment-times';

/**
 * A comment's text, collapsed when the reader's filters hide it (a muted account, a muted word):
 * "Hidden by your filters" with Show, which reveals it in place. Beside its video (the player's
 * comments) the times written in it seek the video (comment-times.tsx).
 */
export function FilteredCommentText({ text, hidden, className }: { text: string; hidden?: boolean | undefined; className: string }) {
  const [shown, setShown] = useState(false);
  if (!hidden || shown)
    return (
      <p className={className}>
        <CommentTextWithTimes text={text} />
      </p>
    );
  return (
    <p className={`${className} comment-thread__filtered`}>
      <em>Hidden by your filters</em>{' '}
      <button type="button" className="link-button" onClick={() => setShown(true)}>
        Show
      </button>
    </p>
  );
}
