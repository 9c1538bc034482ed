import { Link } from 'react-router';
import { PageState } from '../../../components/ui/page-state';

export default function NotFoundRoute() {
  return (
    <>
      <title>Page Not Found · Timeliner</title>
      <PageState
        title="Page Not Found"
        actions={
          <Link to="/" className="button button--primary">
            Back to Home
          </Link>
        }
      >
        <p>The page you are looking for doesn&apos;t exist or has moved.</p>
      </PageState>
    </>
  );
}
