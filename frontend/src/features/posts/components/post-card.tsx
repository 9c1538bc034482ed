import { lazy, Suspense, useContext, useId, useState, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/avatar';
import { CommentReportContext, useCanReport } from '../../../components/ui/comment-report';
import { EngagementBar } from '../../../components/ui/engagement-bar';
import { ModerationReviewNote } from '../../../components/ui/moderation-review-note';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { formatRelativeTime } from '../../../lib/format';
import { nativeShare } from '../../../lib/share-intents';
import { useDeletePost } from '../api/delete-post';
import { useUpdatePost } from '../api/update-post';
import { usePostToggles } from '../hooks/use-post-toggles';
import { POST_MAX_LENGTH } from '../lib/post-length';
import type { Post, PostStore } from '../api/types';
import { postLink } from '../lib/post-link';
import { PostOptions } from './post-options';
import './posts.css';

// Loaded when first opened: every card has them, few people open them.
const SharePostDialog = lazy(() => import('./share-post-dialog').then((module) => ({ default: module.SharePostDialog })));
const PostCommentSettingsDialog = lazy(() => import('./post-comment-settings-dialog').then((module) => ({ default: module.PostCommentSettingsDialog })));
// The comments, their composer and the author's controls: loaded when the thread is opened.
const PostComments = lazy(() => import('./post-comments').then((module) => ({ default: module.PostComments })));
const ConfirmDialog = lazy(() => import('../../../components/ui/confirm-dialog').then((module) => ({ default: module.ConfirmDialog })));

export const DELETE_POST_QUESTION = 'Are you sure you want to delete this post?';

/** The cover of what is marked sensitive, with Show (put in by the page: the viewing feature's). */
export type SensitiveCoverComponent = ComponentType<{ sensitive: boolean; noun?: string; children: ReactNode }>;

export interface PostCardProps {
  post: Post;
  /** Covers the text of a post marked sensitive until Show; none: shown as it is. */
  Cover?: SensitiveCoverComponent;
  /** The signed-in user's id: the author alone may edit and delete. */
  viewerId: string;
  store: PostStore;
  /** Whether this post is the one in edit mode (one post at a time, spec 000 section 4). */
  editing: boolean;
  onEditingChange: (editing: boolean) => void;
}

function PostEditor({ post, store, onDone }: { post: Post; store: PostStore; onDone: () => void }) {
  const id = useId();
  const [draft, setDraft] = useState(post.content);
  const [sensitive, setSensitive] = useState(post.sensitive);
  const update = useUpdatePost(store, {
    onSuccess: onDone,
    onError: (error) => toast({ title: 'Could not save your post', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  const text = draft.trim();

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!text || update.isPending) return;
    if (text === post.content && sensitive === post.sensitive) onDone();
    else update.mutate({ id: post.id, content: text, ...(sensitive === post.sensitive ? {} : { sensitive }) });
  };

  return (
    <form className="post-card__editor" onSubmit={save}>
      <label htmlFor={`${id}-edit`} className="visually-hidden">
        Edit post
      </label>
      <textarea
        id={`${id}-edit`}
        className="post-composer__input"
        rows={3}
        maxLength={POST_MAX_LENGTH}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        autoFocus
      />
      <label className="post-card__sensitive">
        <input type="checkbox" checked={sensitive} onChange={(event) => setSensitive(event.target.checked)} /> Sensitive
      </label>
      <div className="post-card__editor-actions">
        <button type="button" className="button button--secondary button--sm" onClick={onDone} disabled={update.isPending}>
          Cancel
        </button>
        <button type="submit" className="button button--primary button--sm" disabled={!text || update.isPending}>
          {update.isPending ? 'Saving...' : 'Save'}
        </button>
      </div>
    </form>
  );
}

/** A text post in the feed: author, time, content (editable by its author, reported by anyone else), actions, comments. */
export function PostCard({ post, viewerId, store, editing, onEditingChange, Cover }: PostCardProps) {
  const id = useId();
  const [commentsOpen, setCommentsOpen] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [commentSettingsOpen, setCommentSettingsOpen] = useState(false);
  const [reportOpen, setReportOpen] = useState(false);
  // The signed-in shell's report dialog (none signed out, or for a card on its own).
  const reporting = useContext(CommentReportContext);
  const canReport = useCanReport();
  const toggles = usePostToggles(post, store);
  const remove = useDeletePost(store, {
    onSuccess: () => {
      setConfirmingDelete(false);
      toast({ title: 'Post deleted' });
    },
    onError: (error) => {
      setConfirmingDelete(false);
      toast({ title: 'Could not delete the post', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
    },
  });
  const isAuthor = post.userId === viewerId;
  // A post the moderators took out reaches someone else only on its own page, for staff to review.
  const reviewing = post.removedByModerators && !isAuthor;
  const reportable = !reviewing && canReport(post.userId);
  const name = post.user?.displayName || post.user?.username || 'Unknown User';
  const profile = `/profile/${encodeURIComponent(post.userId)}`;

  const share = async () => {
    const result = await nativeShare({ text: post.content, url: postLink(window.location.origin, post) });
    if (result === 'unavailable') setSharing(true);
  };

  return (
    <article className="card feed-card" aria-labelledby={`${id}-author`}>
      <header className="feed-card__header">
        <Link to={profile} className="feed-card__avatar" tabIndex={-1} aria-hidden="true">
          <Avatar name={name} src={post.user?.avatar} />
        </Link>
        <div className="feed-card__who">
          <Link to={profile} className="feed-card__name" id={`${id}-author`}>
            {name}
          </Link>
          <span className="feed-card__time">
            <time dateTime={post.createdAt}>{formatRelativeTime(post.createdAt)}</time>
            {post.edited ? ' · edited' : null}
          </span>
        </div>
        {isAuthor ? (
          <PostOptions onEdit={() => onEditingChange(true)} onDelete={() => setConfirmingDelete(true)} onCommentSettings={() => setCommentSettingsOpen(true)} />
        ) : reportable ? (
          <PostOptions onReport={() => setReportOpen(true)} />
        ) : null}
      </header>

      {editing && isAuthor ? (
        <PostEditor post={post} store={store} onDone={() => onEditingChange(false)} />
      ) : Cover ? (
        <Cover sensitive={post.sensitive} noun="post">
          <p className="post-card__content">{post.content}</p>
        </Cover>
      ) : (
        <p className="post-card__content">{post.content}</p>
      )}
      {post.removedByModerators && isAuthor ? (
        <p className="post-card__removed" role="note">
          <strong>Removed by moderators.</strong> Only you can see it. <Link to="/moderation/notices">See why</Link>
        </p>
      ) : null}
      {reviewing ? (
        <ModerationReviewNote reason={post.moderationReason} className="post-card__removed" />
      ) : null}

      {reviewing ? null : (
        <EngagementBar
          liked={toggles.liked}
          likesCount={post.likesCount}
          commentsCount={post.commentsCount}
          bookmarked={toggles.bookmarked}
          commentsOpen={commentsOpen}
          commentsId={`${id}-comments`}
          onLike={toggles.toggleLike}
          onComments={() => setCommentsOpen((open) => !open)}
          onShare={() => void share()}
          onBookmark={toggles.toggleBookmark}
        />
      )}
      {commentsOpen && !reviewing ? (
        <div id={`${id}-comments`}>
          <Suspense fallback={<p className="comment-thread__note">Loading comments...</p>}>
            <PostComments postId={post.id} store={store} label={`Comments on ${name}'s post`} isAuthor={isAuthor} />
          </Suspense>
        </div>
      ) : null}

      <Suspense fallback={null}>
        {sharing ? <SharePostDialog post={post} open onOpenChange={setSharing} /> : null}
        {commentSettingsOpen ? <PostCommentSettingsDialog postId={post.id} open onOpenChange={setCommentSettingsOpen} /> : null}
        {confirmingDelete ? (
          <ConfirmDialog
            open
            onOpenChange={setConfirmingDelete}
            title="Delete Post"
            description={DELETE_POST_QUESTION}
            confirmLabel="Delete"
            pendingLabel="Deleting..."
            pending={remove.isPending}
            onConfirm={() => remove.mutate(post.id)}
          />
        ) : null}
      </Suspense>
      {/* Once sent, the post leaves the viewer's feed (the report's own update of the feed). */}
      {reportOpen && reportable && reporting ? <reporting.Dialog target={{ contentType: 'post', contentId: post.id }} onClose={() => setReportOpen(false)} /> : null}
    </article>
  );
}
