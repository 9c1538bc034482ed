/**
 * Every route of the moderation desk, with a request that would succeed for a moderator: the
 * moderation suite sends each as a stranger, an author and an anonymous caller (refused, nothing
 * changes), and the social matrix counts them as covered.
 */
export interface ModerationRoute {
  method: 'get' | 'post';
  /** OpenAPI path template. */
  route: string;
  path: (ids: { postId: string; userId: string; appealId: string; actionId: string }) => string;
  body?: Record<string, unknown>;
  /** Staff only (403 to everyone else), or any signed-in person about their own content. */
  staff: boolean;
}

export const moderationRoutes: ModerationRoute[] = [
  { method: 'get', route: '/api/moderation/role', path: () => '/api/moderation/role', staff: false },
  { method: 'get', route: '/api/moderation/queue', path: () => '/api/moderation/queue', staff: true },
  { method: 'post', route: '/api/moderation/items/{type}/{id}/decision', path: ({ postId }) => `/api/moderation/items/post/${postId}/decision`, body: { action: 'hide', reason: 'Spam' }, staff: true },
  { method: 'post', route: '/api/moderation/users/{id}/suspension', path: ({ userId }) => `/api/moderation/users/${userId}/suspension`, body: { reason: 'Spam', days: 3 }, staff: true },
  { method: 'post', route: '/api/moderation/users/{id}/lift', path: ({ userId }) => `/api/moderation/users/${userId}/lift`, body: { reason: 'Served' }, staff: true },
  { method: 'post', route: '/api/moderation/appeals/{id}/decision', path: ({ appealId }) => `/api/moderation/appeals/${appealId}/decision`, body: { outcome: 'grant', reason: 'Fair' }, staff: true },
  { method: 'get', route: '/api/moderation/audit', path: () => '/api/moderation/audit', staff: true },
  { method: 'get', route: '/api/moderation-notices', path: () => '/api/moderation-notices', staff: false },
  { method: 'post', route: '/api/moderation-notices/{actionId}/appeal', path: ({ actionId }) => `/api/moderation-notices/${actionId}/appeal`, body: { text: 'Please look again' }, staff: false },
];
