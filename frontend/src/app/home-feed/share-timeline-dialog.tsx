import { ResponsiveDialog } from '../../components/ui/dialog';
import { toast } from '../../components/ui/toast';
import { copyText } from '../../lib/clipboard';
import { emailIntent, facebookIntent, smsIntent, twitterIntent } from '../../lib/share-intents';
import { useRecordShare, type ShareChannel } from '../../features/timelines/api/record-share';
import { timelineWatchLink } from '../../features/timelines/lib/share-links';
import type { FeedTimeline } from '../../features/feed/api/types';

export interface ShareTimelineDialogProps {
  timeline: Pick<FeedTimeline, 'id' | 'title'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Share Timeline: copy the link, or open Twitter, Facebook, e-mail or SMS; each share is counted. */
export function ShareTimelineDialog({ timeline, open, onOpenChange }: ShareTimelineDialogProps) {
  const recordShare = useRecordShare();
  const url = timelineWatchLink(window.location.origin, timeline.id);
  const count = (channel: ShareChannel) => recordShare.mutate({ id: timeline.id, channel });

  const copy = async () => {
    if (!(await copyText(url))) {
      toast({ title: 'Failed to copy', description: 'Could not copy link to clipboard.', variant: 'destructive' });
      return;
    }
    toast({ title: 'Link copied!', description: 'Timeline link has been copied to your clipboard.' });
    count('link');
  };

  const intents: { label: string; channel: ShareChannel; href: string }[] = [
    { label: 'Twitter', channel: 'twitter', href: twitterIntent(timeline.title, url) },
    { label: 'Facebook', channel: 'facebook', href: facebookIntent(url) },
    { label: 'Email', channel: 'email', href: emailIntent(timeline.title, `${timeline.title}\n\n${url}`) },
    { label: 'SMS', channel: 'sms', href: smsIntent(`${timeline.title} ${url}`) },
  ];

  return (
    <ResponsiveDialog open={open} onOpenChange={onOpenChange} title="Share Timeline" description={timeline.title}>
      <button type="button" className="button button--primary button--block" onClick={() => void copy()}>
        Copy link
      </button>
      <ul className="share-options">
        {intents.map((intent) => (
          <li key={intent.label}>
            <a
              className="button button--secondary button--block"
              href={intent.href}
              target={intent.href.startsWith('http') ? '_blank' : undefined}
              rel="noopener noreferrer"
              onClick={() => count(intent.channel)}
            >
              {intent.label}
            </a>
          </li>
        ))}
      </ul>
    </ResponsiveDialog>
  );
}
