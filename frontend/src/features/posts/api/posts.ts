import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import type { BookmarkStatus, LikeStatus, Post, PostComment, PostStore } from './types';

const postPath = (id: string) => `/api/posts/${encodeURIComponent(id)}`;

/** Longest post the server accepts. */
export const POST_MAX_LENGTH = 5000;

export function createPost(content: string): Promise<Post> {
  return apiRequest<Post>('POST', '/api/posts', { content });
}

export function updatePost(id: string, content: string): Promise<Post> {
  return apiRequest<Post>('PUT', postPath(id), { content });
}

export function deletePost(id: string): Promise<void> {
  return apiRequest<void>('DELETE', postPath(id));
}

export function setPostLiked(id: string, liked: boolean): Promise<LikeStatus> {
  return apiRequest<LikeStatus>(liked ? 'POST' : 'DELETE', `${postPath(id)}/like`);
}

export function setPostBookmarked(id: string, bookmarked: boolean): Promise<BookmarkStatus> {
  return apiRequest<BookmarkStatus>(bookmarked ? 'POST' : 'DELETE', `${postPath(id)}/bookmark`);
}

export const postCommentsQueryKey = (id: string) => ['posts', 'comments', id] as const;

/** The post's first page of comments, oldest first. */
export function getPostComments(id: string): Promise<PostComment[]> {
  return apiRequest<PostComment[]>('GET', `${postPath(id)}/comments`);
}

export function addPostComment(id: string, content: string): Promise<PostComment> {
  return apiRequest<PostComment>('POST', `${postPath(id)}/comments`, { content });
}

type Callbacks<T> = { onSuccess?: (value: T) => void; onError?: (error: Error) => void };

export function useCreatePost(callbacks: Callbacks<Post> = {}) {
  return useMutation({ mutationFn: createPost, ...callbacks });
}

export function useUpdatePost(store: PostStore, callbacks: Callbacks<Post> = {}) {
  return useMutation({
    mutationFn: ({ id, content }: { id: string; content: string }) => updatePost(id, content),
    onSuccess: (post, { id }) => {
      store.patchPost(id, () => post);
      callbacks.onSuccess?.(post);
    },
    onError: callbacks.onError,
  });
}

export function useDeletePost(store: PostStore, callbacks: Callbacks<void> = {}) {
  return useMutation({
    mutationFn: deletePost,
    onSuccess: (_answer, id) => {
      store.removePost(id);
      callbacks.onSuccess?.();
    },
    onError: callbacks.onError,
  });
}

const isLiked = (post: Post) => post.isLiked || post.liked;
const isBookmarked = (post: Post) => post.isBookmarked || post.bookmarked;

/** Like and bookmark: the post changes at once and goes back if the server refuses (only logged). */
export function usePostToggles(post: Post, store: PostStore) {
  const like = useMutation({
    mutationFn: (liked: boolean) => setPostLiked(post.id, liked),
    onMutate: (liked) =>
      store.patchPost(post.id, (current) => ({
        liked,
        isLiked: liked,
        likesCount: Math.max(0, current.likesCount + (liked ? 1 : -1)),
      })),
    onError: (_error, _liked, undo) => undo?.(),
    onSuccess: (status, liked) => {
      const now = status.isLiked ?? status.liked ?? liked;
      store.patchPost(post.id, (current) => ({
        liked: now,
        isLiked: now,
        likesCount: typeof status.likesCount === 'number' ? status.likesCount : current.likesCount,
      }));
    },
  });
  const bookmark = useMutation({
    mutationFn: (bookmarked: boolean) => setPostBookmarked(post.id, bookmarked),
    onMutate: (bookmarked) => store.patchPost(post.id, () => ({ bookmarked, isBookmarked: bookmarked })),
    onError: (_error, _bookmarked, undo) => undo?.(),
  });
  return {
    liked: isLiked(post),
    bookmarked: isBookmarked(post),
    toggleLike: () => like.mutate(!isLiked(post)),
    toggleBookmark: () => bookmark.mutate(!isBookmarked(post)),
  };
}

export function usePostComments(id: string, { enabled }: { enabled: boolean }) {
  return useQuery({ queryKey: postCommentsQueryKey(id), queryFn: () => getPostComments(id), enabled });
}

export function useAddPostComment(id: string, store: PostStore) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (content: string) => addPostComment(id, content),
    onSuccess: () => {
      store.patchPost(id, (post) => ({ commentsCount: post.commentsCount + 1 }));
      void queryClient.invalidateQueries({ queryKey: postCommentsQueryKey(id) });
    },
  });
}
