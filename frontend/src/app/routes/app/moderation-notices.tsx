import { ModerationNotices } from '../../../features/moderation/components/moderation-notices';

/** /moderation/notices: what moderators did about the signed-in person's content or account. */
export default function ModerationNoticesRoute() {
  return (
    <>
      <title>Moderation notices · Timeliner</title>
      <ModerationNotices />
    </>
  );
}
