import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PageState } from '../../../components/ui/page-state';
import { Spinner } from '../../../components/ui/spinner';
import { useUser } from '../../../lib/current-user';
import { postQueryKey, usePost } from '../../../features/posts/api/get-post';
import type { Post, PostStore } from '../../../features/posts/api/types';
import { PostCard } from '../../../features/posts/components/post-card';
import { SensitiveCoverOnDemand } from '../../../features/viewing/components/sensitive-cover-on-demand';
import { ApiError } from '../../../lib/api-client';
import '../../../features/feed/components/feed.css';
import '../../../features/posts/components/post-page.css';

const home = (
  <Link to="/" className="button button--primary">
    Back to Home
  </Link>
);

/**
 * A post's own page (/post/{id}): where a shared post's link leads. The post as the feed shows it,
 * with its likes, comments, bookmark and share; its author may edit or delete it (then the page
 * goes home). Signed in only, as every page but the invitation: a signed-out visitor gets the
 * sign-in screen at this address and the post once signed in.
 */
export default function PostRoute() {
  const { id = '' } = useParams();
  const me = useUser();
  const post = usePost(id);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);

  const store = useMemo<PostStore>(
    () => ({
      patchPost: (postId, patch) => {
        const before = queryClient.getQueryData<Post>(postQueryKey(postId));
        if (before) queryClient.setQueryData<Post>(postQueryKey(postId), { ...before, ...patch(before) });
        return () => queryClient.setQueryData(postQueryKey(postId), before);
      },
      removePost: (postId) => {
        queryClient.removeQueries({ queryKey: postQueryKey(postId) });
        void navigate('/', { replace: true });
      },
    }),
    [queryClient, navigate],
  );

  let page;
  if (post.isPending || !me.data) {
    page = (
      <div className="page-state">
        <Spinner label="Loading post..." />
      </div>
    );
  } else if (post.isError) {
    const missing = post.error instanceof ApiError && (post.error.status === 404 || post.error.status === 400);
    page = missing ? (
      <PageState title="Post not found" actions={home}>
        <p>This post was deleted, or the link is wrong.</p>
      </PageState>
    ) : (
      <PageState
        title="Post unavailable"
        actions={
          <button type="button" className="button button--primary" onClick={() => void post.refetch()}>
            Try again
          </button>
        }
      >
        <p>The post could not be loaded. Check your connection and try again.</p>
      </PageState>
    );
  } else {
    page = (
      <div className="post-page">
        <h1 className="visually-hidden">Post by {post.data.user.displayName}</h1>
        <PostCard post={post.data} viewerId={me.data.id} store={store} editing={editing} onEditingChange={setEditing} Cover={SensitiveCoverOnDemand} />
      </div>
    );
  }

  return (
    <>
      <title>{post.data ? `Post by ${post.data.user.displayName} · Timeliner` : 'Post · Timeliner'}</title>
      {page}
    </>
  );
}
