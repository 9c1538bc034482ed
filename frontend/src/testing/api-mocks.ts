import { jsonResponse, mockFetch, signIn, testUser, type RecordedRequest } from './test-utils';

type Answer = Response | ((request: RecordedRequest) => Response | Promise<Response>);

/**
 * A signed-in API answering `routes` ('GET /api/timelines/t1' → answer), the current user and an
 * unread count of 0; anything else is a 404 in the API's error shape. Answers may be functions,
 * so a test can change them between steps by mutating its own state.
 */
export function mockApi(routes: Record<string, Answer>, { signedIn = true }: { signedIn?: boolean } = {}) {
  if (signedIn) signIn();
  return mockFetch((request) => {
    const url = new URL(request.url);
    const key = `${request.method} ${url.pathname}`;
    const answer = routes[key];
    if (answer) return typeof answer === 'function' ? answer(request) : answer.clone();
    if (key === 'GET /api/auth/me') return jsonResponse(200, testUser);
    if (key === 'GET /api/notifications/unread-count') return jsonResponse(200, { count: 0 });
    return jsonResponse(404, { statusCode: 404, error: 'Not Found', message: 'Not found' });
  });
}

export const noContent = () => new Response(null, { status: 204 });

export function errorResponse(status: number, message: string, extra: Record<string, unknown> = {}) {
  const error = { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 410: 'Gone', 500: 'Internal Server Error' }[status] ?? 'Error';
  return jsonResponse(status, { statusCode: status, error, message, ...extra });
}

const day = (offset: number) => new Date(Date.UTC(2025, 2, 10 + offset, 12)).toISOString();

export function timelineFixture(overrides: Record<string, unknown> = {}) {
  return {
    id: 't1',
    title: 'Summer Trip',
    description: 'Our road trip along the coast',
    visibility: 'private',
    status: 'draft',
    isPublic: false,
    creatorId: testUser.id,
    creatorName: testUser.displayName,
    views: 1234,
    likesCount: 56,
    commentsCount: 7,
    videoCount: 3,
    imageCount: 0,
    duration: 185,
    createdAt: day(0),
    updatedAt: day(2),
    lastContentAddedAt: day(1),
    lastCommentAt: null,
    lastLikeAt: null,
    lastActivityAt: day(2),
    activityScore: 1.5,
    thumbnailUrl: null,
    role: 'owner',
    ...overrides,
  };
}

export function myTimelineFixture(overrides: Record<string, unknown> = {}) {
  return {
    id: 't1',
    title: 'Summer Trip',
    description: 'Our road trip along the coast',
    videoCount: 3,
    imageCount: 0,
    duration: 185,
    updatedAt: day(2),
    createdAt: day(0),
    status: 'draft',
    visibility: 'private',
    views: 1234,
    role: 'owner',
    ...overrides,
  };
}

export function analyticsFixture(overrides: Record<string, unknown> = {}) {
  return {
    totalViews: 1234,
    uniqueViewers: 800,
    avgWatchTime: 95,
    completionRate: 62,
    shares: 12,
    downloads: 3,
    peakViewingTime: null,
    viewsByDay: [
      { day: '2025-03-08', views: 10 },
      { day: '2025-03-09', views: 25 },
      { day: '2025-03-10', views: 4 },
    ],
    topRegions: [
      { region: 'United Kingdom', views: 600, percentage: 48.6 },
      { region: 'France', views: 300, percentage: 24.3 },
    ],
    hasData: true,
    ...overrides,
  };
}
