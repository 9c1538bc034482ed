import { useId } from 'react';
import { Link } from 'react-router';
import { CloseIcon } from '../../../components/ui/icons';
import { PROMOTIONS, type AdKind } from '../lib/ads';

export interface FeedAdProps {
  kind: AdKind | 'banner';
  onDismiss: (promotionId: string) => void;
}

/** A sponsored block: labelled Sponsored, dismissible, promoting something the app really does. */
export function FeedAd({ kind, onDismiss }: FeedAdProps) {
  const id = useId();
  const promotion = PROMOTIONS[kind];
  return (
    <aside className={`card feed-ad feed-ad--${kind}`} aria-labelledby={`${id}-title`} data-ad-kind={kind}>
      <div className="feed-ad__top">
        <span className="feed-ad__label">Sponsored</span>
        <button type="button" className="icon-button" aria-label={`Dismiss: ${promotion.title}`} onClick={() => onDismiss(promotion.id)}>
          <CloseIcon width={18} height={18} />
        </button>
      </div>
      <h2 className="feed-ad__title" id={`${id}-title`}>
        {promotion.title}
      </h2>
      <p className="feed-ad__text">{promotion.text}</p>
      {promotion.action ? (
        <Link to={promotion.action.to} className="button button--primary button--sm feed-ad__action">
          {promotion.action.label}
        </Link>
      ) : null}
    </aside>
  );
}
