import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUpdateVideoSensitive } from '../api/update-video-sensitive';
import type { Video } from '../api/types';

/**
 * In the studio's list: "Sensitive" for a video or image (viewers then see a cover with Show
 * first), and the moderators' removal, with the way to their notice.
 */
export function VideoSensitiveToggle({ video }: { video: Video }) {
  const update = useUpdateVideoSensitive();
  // At once, as asked; back to the server's word if it refuses.
  const checked = update.isPending ? update.variables.sensitive : video.sensitive;
  return (
    <>
      <label className="video-row__sensitive">
        <input
          type="checkbox"
          checked={checked}
          onChange={(event) =>
            !update.isPending &&
            update.mutate(
              { videoId: video.id, sensitive: event.target.checked },
              { onError: (error) => toast({ title: 'Could not change it', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }) },
            )
          }
        />{' '}
        Sensitive
      </label>
      {video.removedByModerators ? (
        <>
          <Badge tone="danger">Removed by moderators</Badge>{' '}
          <Link to="/moderation/notices">Why?</Link>
        </>
      ) : null}
    </>
  );
}
