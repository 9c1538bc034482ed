import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/avatar';
import { LockIcon } from '../../../components/ui/icons';
import { formatCount, formatDuration, pluralize } from '../../../lib/format';
import { recordSearchResult } from '../api/record-search';
import type { Hashtag, SearchTimeline, SearchUser } from '../api/search';
import { excerpt } from '../lib/highlight';
import { Highlighted } from './highlighted';

/** Every result is a link or button carrying this attribute: the arrow keys move between them. */
export const RESULT_ATTRIBUTE = 'data-search-result';
const result = { [RESULT_ATTRIBUTE]: '' };

export interface ResultContext {
  /** The query the results answer (recorded with the result opened). */
  query: string;
  terms: readonly string[];
  openHashtag: (name: string) => void;
}

export function TimelineResult({ timeline, context }: { timeline: SearchTimeline; context: ResultContext }) {
  const description = timeline.description ? excerpt(timeline.description, context.terms) : '';
  return (
    <article className="card search-result search-result--timeline">
      <Link
        {...result}
        className="search-result__link"
        // Words found in a video's captions open that video where they are said.
        to={`/watch/${encodeURIComponent(timeline.id)}${timeline.spoken ? `?video=${encodeURIComponent(timeline.spoken.videoId)}&t=${Math.floor(timeline.spoken.startTime)}` : ''}`}
        onClick={() => recordSearchResult(context.query, 'timeline', timeline.id)}
      >
        <span className="search-result__initial" aria-hidden="true">
          {timeline.title.trim().charAt(0).toUpperCase() || '?'}
        </span>
        <span className="search-result__body">
          <span className="search-result__title">
            <Highlighted text={timeline.title} terms={context.terms} />
          </span>
          <span className="search-result__meta">
            <Highlighted text={timeline.creator.displayName || timeline.creatorName} terms={context.terms} /> · {pluralize(timeline.videoCount, 'video')} ·{' '}
            {pluralize(timeline.views, 'view')}
          </span>
          {timeline.spoken ? (
            <span className="search-result__text search-result__spoken">
              Said at {formatDuration(timeline.spoken.startTime)}: “<Highlighted text={timeline.spoken.text} terms={context.terms} />”
            </span>
          ) : null}
          {description ? (
            <span className="search-result__text">
              <Highlighted text={description} terms={context.terms} />
            </span>
          ) : null}
        </span>
      </Link>
      {timeline.hashtags.length > 0 ? (
        <ul className="search-result__tags" aria-label={`Hashtags of ${timeline.title}`}>
          {timeline.hashtags.slice(0, 5).map((tag) => (
            <li key={tag}>
              <button {...result} type="button" className="search-tag" onClick={() => context.openHashtag(tag)}>
                #<Highlighted text={tag} terms={context.terms} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}

export function UserResult({ user, context }: { user: SearchUser; context: ResultContext }) {
  const name = user.displayName || user.username;
  return (
    <Link
      {...result}
      className="card search-result search-result__link search-result--user"
      to={`/profile/${encodeURIComponent(user.id)}`}
      onClick={() => recordSearchResult(context.query, 'user', user.id)}
    >
      <Avatar name={name} src={user.avatar} />
      <span className="search-result__body">
        <span className="search-result__title">
          <Highlighted text={name} terms={context.terms} />
          {user.isPrivate ? (
            <>
              <LockIcon className="search-result__lock" width={14} height={14} />
              <span className="visually-hidden"> (private account)</span>
            </>
          ) : null}
        </span>
        <span className="search-result__meta">
          @<Highlighted text={user.username} terms={context.terms} /> · {pluralize(user.followersCount, 'follower')}
        </span>
        {user.bio ? (
          <span className="search-result__text">
            <Highlighted text={excerpt(user.bio, context.terms, 120)} terms={context.terms} />
          </span>
        ) : null}
      </span>
    </Link>
  );
}

export function HashtagResult({ hashtag, context, rank }: { hashtag: Hashtag; context: ResultContext; rank?: number }) {
  return (
    <button
      {...result}
      type="button"
      className="card search-result search-result__link search-result--hashtag"
      onClick={() => {
        recordSearchResult(context.query || `#${hashtag.name}`, 'hashtag', hashtag.name);
        context.openHashtag(hashtag.name);
      }}
    >
      {rank !== undefined ? <span className="search-result__rank">{rank}</span> : null}
      <span className="search-result__body">
        <span className="search-result__title">
          #<Highlighted text={hashtag.name} terms={context.terms} />
        </span>
        <span className="search-result__meta">{formatCount(hashtag.usageCount)} {hashtag.usageCount === 1 ? 'use' : 'uses'}</span>
      </span>
    </button>
  );
}

/** A titled group of results. */
export function ResultSection({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  const id = `search-section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="search-section" aria-labelledby={id}>
      <div className="search-section__head">
        <h2 className="search-section__title" id={id}>
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

export function ResultList<T>({ items, label, render, keyOf }: { items: readonly T[]; label: string; render: (item: T, index: number) => ReactNode; keyOf: (item: T) => string }) {
  return (
    <ul className="search-list" aria-label={label}>
      {items.map((item, i) => (
        <li key={keyOf(item)}>{render(item, i)}</li>
      ))}
    </ul>
  );
}
