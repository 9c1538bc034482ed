import { useNavigate } from 'react-router';
import { ArrowLeftIcon } from '../../../components/ui/icons';
import { PageState } from '../../../components/ui/page-state';

export default function WatchRoute() {
  const navigate = useNavigate();
  const goBack = () => {
    // A shared link opens the player first; there is then no history entry to return to.
    if (window.history.state && (window.history.state as { idx?: number }).idx) navigate(-1);
    else navigate('/');
  };
  return (
    <>
      <title>Watch · Timeliner</title>
      <button type="button" className="button button--ghost" onClick={goBack}>
        <ArrowLeftIcon width={20} height={20} /> Back
      </button>
      <PageState title="Timeline Player">
        <p>Playing timelines isn&apos;t available yet.</p>
      </PageState>
    </>
  );
}
