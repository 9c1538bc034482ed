import { ModerationDesk } from '../../../features/moderation/components/moderation-desk';

/** /moderation: the moderation desk (moderators and admins; everyone else sees Page Not Found, and the server refuses them). */
export default function ModerationRoute() {
  return (
    <>
      <title>Moderation · Timeliner</title>
      <ModerationDesk />
    </>
  );
}
