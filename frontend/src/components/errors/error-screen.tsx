import { PageState } from '../ui/page-state';

/** The generic error screen (spec 001, section 8). */
export function ErrorScreen() {
  return (
    <main className="app-main" id="main">
      <PageState
        title="Something went wrong"
        actions={
          <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
            Refresh Page
          </button>
        }
      >
        <p>An unexpected error stopped this page. Please refresh the page.</p>
      </PageState>
    </main>
  );
}
