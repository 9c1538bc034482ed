import { PageState } from '../../../components/ui/page-state';

export default function DashboardRoute() {
  return (
    <>
      <title>Dashboard · Timeliner</title>
      <PageState title="Dashboard">
        <p>Manage your video timelines and projects.</p>
        <p>Your timelines can&apos;t be listed here yet.</p>
      </PageState>
    </>
  );
}
