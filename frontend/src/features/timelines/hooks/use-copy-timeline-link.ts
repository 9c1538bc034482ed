import { toast } from '../../../components/ui/toast';
import { copyText } from '../../../lib/clipboard';
import { useRecordShare, type ShareChannel } from '../api/record-share';

/** What was copied: the studio share link, the player's link, or the embed snippet. */
export type CopiedLink = 'share-link' | 'watch-link' | 'embed';

const COPIED: Record<CopiedLink, { title: string; description: string; channel: ShareChannel }> = {
  'share-link': { title: 'Link copied!', description: 'Timeline link has been copied to your clipboard.', channel: 'link' },
  'watch-link': { title: 'Link copied!', description: 'Watch link has been copied to your clipboard.', channel: 'link' },
  embed: { title: 'Embed code copied!', description: 'Embed code has been copied to your clipboard.', channel: 'embed' },
};

/**
 * Copies a timeline's link or embed code, says so (spec 000, section 8), and counts the share in
 * the timeline's analytics. A failed count is only logged: the person has their link.
 */
export function useCopyTimelineLink() {
  const recordShare = useRecordShare();
  return async (timelineId: string, text: string, kind: CopiedLink): Promise<void> => {
    if (!(await copyText(text))) {
      toast({
        title: 'Failed to copy',
        description: kind === 'embed' ? 'Could not copy to clipboard.' : 'Could not copy link to clipboard.',
        variant: 'destructive',
      });
      return;
    }
    const { channel, ...message } = COPIED[kind];
    toast(message);
    recordShare.mutate({ id: timelineId, channel });
  };
}
