import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createBrowserRouter, type DataRouter, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { getMeQueryOptions, useUser } from '../lib/current-user';
import { CollectionsAccessDenied } from '../features/collections/components/access-denied';
import { getInvitationQueryOptions } from '../features/collaboration/api/get-invitation';
import { getFeedQueryOptions } from '../features/feed/api/get-feed';
import { getVideosQueryOptions } from '../features/media/api/get-videos';
import { getMyTimelinesQueryOptions } from '../features/timelines/api/get-my-timelines';
import { getTimelineQueryOptions } from '../features/timelines/api/get-timeline';
import { getTimelinesQueryOptions } from '../features/timelines/api/get-timelines';
import { preloadStudioThumbnails } from '../features/timelines/lib/studio-list';
import { getFollowStatusQueryOptions } from '../features/users/api/get-follow-status';
import { getProfileQueryOptions } from '../features/users/api/get-profile';
import { getUserListQueryOptions, profileTabOf } from '../features/users/api/user-lists';
import { isUserId } from '../features/users/lib/user-id';
import { getAuthToken } from '../lib/auth-token';
import { RequireAuth } from './routes/require-auth';
import { RootErrorBoundary, RootHydrateFallback, RootLayout } from './routes/root';

/** A lazily loaded route module: its page is the default export. */
export interface RouteModule {
  default: ComponentType;
}

const lazy = (load: () => Promise<RouteModule>) => () => load().then((module) => ({ Component: module.default }));

/**
 * A loader that starts fetching a page's data with the same query options the page reads, while
 * the router downloads the page's code. It never waits: the page shows its own loading state,
 * and a slow API never holds up the first paint or the session check.
 */
function prefetch(start: (args: LoaderFunctionArgs) => void) {
  return (args: LoaderFunctionArgs) => {
    if (getAuthToken()) start(args);
    return null;
  };
}

/**
 * Collections tell a signed-out visitor 'Access Denied', with a link to log in (spec 001,
 * "Collections"), instead of the sign-in screen every other page shows.
 */
function RequireAuthOrAccessDenied() {
  const me = useUser();
  return me.data === null ? <CollectionsAccessDenied /> : <RequireAuth />;
}

export function createRoutes(queryClient: QueryClient): RouteObject[] {
  const prefetchMyTimelines = prefetch(() => void queryClient.prefetchQuery(getMyTimelinesQueryOptions()));
  // The studio's first pictures are asked for as soon as the list arrives, not once its cards are drawn.
  const prefetchStudio = prefetch(() => {
    queryClient.fetchQuery(getMyTimelinesQueryOptions()).then(preloadStudioThumbnails, () => undefined);
  });
  const prefetchTimeline = prefetch(({ params }) => {
    if (params.id) void queryClient.prefetchQuery(getTimelineQueryOptions(params.id));
  });
  return [
    {
      id: 'root',
      // Who is signed in is asked at once, in parallel with loading the first page's code.
      loader: prefetch(() => void queryClient.prefetchQuery(getMeQueryOptions())),
      shouldRevalidate: () => false,
      Component: RootLayout,
      ErrorBoundary: RootErrorBoundary,
      HydrateFallback: RootHydrateFallback,
      children: [
        // Another site's iframe: no shell, no sign-in (published timelines that are not private).
        { path: 'embed/timeline/:id', lazy: lazy(() => import('./routes/embed')) },
        {
          path: 'invite/:token?',
          // Open without signing in: the invitation is asked for whether or not a token is held.
          loader: ({ params }) => {
            const token = params.token?.trim();
            if (token) void queryClient.prefetchQuery(getInvitationQueryOptions(token));
            return null;
          },
          lazy: lazy(() => import('./routes/invite')),
        },
        // Where a reset e-mail's link leads: open without signing in.
        { path: 'reset-password/:token?', lazy: lazy(() => import('./routes/reset-password')) },
        // Where the link sent to a new e-mail address leads: open without signing in.
        { path: 'confirm-email/:token?', lazy: lazy(() => import('./routes/confirm-email')) },
        {
          Component: RequireAuthOrAccessDenied,
          children: [
            { path: 'collections', lazy: lazy(() => import('./routes/app/collections')) },
            { path: 'collections/:id', lazy: lazy(() => import('./routes/app/collection')) },
          ],
        },
        {
          Component: RequireAuth,
          children: [
            {
              index: true,
              // The feed's first page and the trending list, beside the session check and the code.
              loader: prefetch(() => {
                void queryClient.prefetchInfiniteQuery(getFeedQueryOptions('for-you'));
                void queryClient.prefetchQuery(getTimelinesQueryOptions());
              }),
              // Someone who holds a token gets the feed itself as the page, so it renders in the
              // route's first render with nothing left to load behind a spinner; a visitor gets
              // the small page that loads the feed only once signed in.
              lazy: lazy(() => (getAuthToken() ? import('./routes/app/home-feed') : import('./routes/app/home'))),
            },
            { path: 'dashboard', loader: prefetchMyTimelines, lazy: lazy(() => import('./routes/app/dashboard')) },
            { path: 'studio', loader: prefetchStudio, lazy: lazy(() => import('./routes/app/studio')) },
            { path: 'timeline/:id', loader: prefetchTimeline, lazy: lazy(() => import('./routes/app/timeline-studio')) },
            { path: 'creator/:id', loader: prefetchTimeline, lazy: lazy(() => import('./routes/app/timeline-studio')) },
            {
              path: 'watch/:id',
              // The timeline, its videos and the list the player swipes through, all at once.
              loader: prefetch(({ params }) => {
                if (!params.id) return;
                void queryClient.prefetchQuery(getTimelineQueryOptions(params.id));
                void queryClient.prefetchQuery(getVideosQueryOptions(params.id));
                void queryClient.prefetchQuery(getTimelinesQueryOptions());
              }),
              lazy: lazy(() => import('./routes/app/watch')),
            },
            { path: 'search', lazy: lazy(() => import('./routes/app/search')) },
            { path: 'notifications', lazy: lazy(() => import('./routes/app/notifications')) },
            { path: 'follow-requests', lazy: lazy(() => import('./routes/app/follow-requests')) },
            // The moderation desk (staff only) and a person's own moderation notices, where they may appeal.
            { path: 'moderation', lazy: lazy(() => import('./routes/app/moderation')) },
            { path: 'moderation/notices', lazy: lazy(() => import('./routes/app/moderation-notices')) },
            // Where "Your export is ready" leads: the download starts there.
            { path: 'exports/:id', lazy: lazy(() => import('./routes/app/export-download')) },
            // A post's own page: where a shared post's link leads.
            { path: 'post/:id', lazy: lazy(() => import('./routes/app/post')) },
            {
              path: 'profile/:id',
              // The profile, whether one follows them, and the open tab's first page, all at once.
              loader: prefetch(({ params, request }) => {
                if (!isUserId(params.id)) return;
                const id = params.id;
                const tab = profileTabOf(new URL(request.url).searchParams.get('tab'));
                // A private account's tabs only once the follow status says the viewer follows it (else 403).
                void Promise.all([queryClient.fetchQuery(getProfileQueryOptions(id)), queryClient.fetchQuery(getFollowStatusQueryOptions(id))])
                  .then(([profile, status]) => (profile.isPrivate && !status.isFollowing ? undefined : queryClient.prefetchInfiniteQuery(getUserListQueryOptions(id, tab.list))))
                  .catch(() => undefined);
              }),
              // Switching tabs (?tab=) is not a new page: nothing to fetch again.
              shouldRevalidate: ({ currentUrl, nextUrl, defaultShouldRevalidate }) => currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate,
              lazy: lazy(() => import('./routes/app/profile')),
            },
            { path: 'saved', lazy: lazy(() => import('./routes/app/saved')) },
            { path: 'settings', lazy: lazy(() => import('./routes/app/settings')) },
            { path: '*', lazy: lazy(() => import('./routes/app/not-found')) },
          ],
        },
      ],
    },
  ];
}

/**
 * The app's router. Made before React first renders (see main.tsx): its first navigation starts
 * at once, so the page's code and data are asked for before the first render's work, not after it.
 */
export function createAppRouter(queryClient: QueryClient): DataRouter {
  return createBrowserRouter(createRoutes(queryClient));
}
