/**
 * Every comment-control route (settings, approval queue, approve, pin, delete) with what it asks
 * of the caller: the comment-controls suite sends each as the item's moderator, as someone else
 * who sees the item and signed out, and the social matrix counts them as covered. Those on
 * timelines and videos are also in the cross-service access matrix (test/contracts/social-access.test.ts).
 */
export interface CommentControlRoute {
  method: 'get' | 'put' | 'post' | 'delete';
  /** OpenAPI path template. */
  route: string;
  /** What the item's moderator gets. */
  ok: number;
  /** Readable by anyone who sees the item (the settings); otherwise moderators only. */
  open?: boolean;
}

export const commentControlRoutes: CommentControlRoute[] = [
  { method: 'get', route: '/api/timelines/{id}/comment-settings', ok: 200, open: true },
  { method: 'put', route: '/api/timelines/{id}/comment-settings', ok: 200 },
  { method: 'get', route: '/api/timelines/{id}/held-comments', ok: 200 },
  { method: 'delete', route: '/api/timelines/{id}/comments/{commentId}', ok: 204 },
  { method: 'post', route: '/api/timelines/{id}/comments/{commentId}/approve', ok: 204 },
  { method: 'put', route: '/api/timelines/{id}/comments/{commentId}/pin', ok: 204 },
  { method: 'delete', route: '/api/timelines/{id}/comments/{commentId}/pin', ok: 204 },
  { method: 'post', route: '/api/videos/{id}/comments/{commentId}/approve', ok: 204 },
  { method: 'put', route: '/api/videos/{id}/comments/{commentId}/pin', ok: 204 },
  { method: 'delete', route: '/api/videos/{id}/comments/{commentId}/pin', ok: 204 },
  { method: 'get', route: '/api/posts/{id}/comment-settings', ok: 200, open: true },
  { method: 'put', route: '/api/posts/{id}/comment-settings', ok: 200 },
  { method: 'get', route: '/api/posts/{id}/held-comments', ok: 200 },
  { method: 'delete', route: '/api/posts/{id}/comments/{commentId}', ok: 204 },
  { method: 'post', route: '/api/posts/{id}/comments/{commentId}/approve', ok: 204 },
  { method: 'put', route: '/api/posts/{id}/comments/{commentId}/pin', ok: 204 },
  { method: 'delete', route: '/api/posts/{id}/comments/{commentId}/pin', ok: 204 },
];
