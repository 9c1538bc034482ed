import { formatNumber, pluralize } from '../../lib/format';
import { BookmarkIcon, CommentIcon, HeartIcon, ShareIcon } from './icons';
import './engagement-bar.css';

export interface EngagementBarProps {
  liked: boolean;
  likesCount: number;
  commentsCount: number;
  bookmarked: boolean;
  commentsOpen: boolean;
  /** The id of the comment panel the comment button opens. */
  commentsId: string;
  onLike: () => void;
  onComments: () => void;
  onShare: () => void;
  onBookmark: () => void;
}

/** Like, comment, share and bookmark for a post or a timeline card. */
export function EngagementBar(props: EngagementBarProps) {
  const { liked, likesCount, commentsCount, bookmarked, commentsOpen, commentsId } = props;
  return (
    <div className="engagement-bar">
      <button
        type="button"
        className={`engagement-bar__button${liked ? ' engagement-bar__button--on' : ''}`}
        aria-pressed={liked}
        aria-label={`Like, ${pluralize(likesCount, 'like')}`}
        onClick={props.onLike}
      >
        <HeartIcon width={20} height={20} fill={liked ? 'currentColor' : 'none'} />
        <span aria-hidden="true">{formatNumber(likesCount)}</span>
      </button>
      <button
        type="button"
        className="engagement-bar__button"
        aria-expanded={commentsOpen}
        aria-controls={commentsOpen ? commentsId : undefined}
        aria-label={`Comments, ${pluralize(commentsCount, 'comment')}`}
        onClick={props.onComments}
      >
        <CommentIcon width={20} height={20} />
        <span aria-hidden="true">{formatNumber(commentsCount)}</span>
      </button>
      <button type="button" className="engagement-bar__button" aria-label="Share" onClick={props.onShare}>
        <ShareIcon width={20} height={20} />
      </button>
      <button
        type="button"
        className={`engagement-bar__button engagement-bar__button--end${bookmarked ? ' engagement-bar__button--on' : ''}`}
        aria-pressed={bookmarked}
        aria-label="Bookmark"
        onClick={props.onBookmark}
      >
        <BookmarkIcon width={20} height={20} fill={bookmarked ? 'currentColor' : 'none'} />
      </button>
    </div>
  );
}
