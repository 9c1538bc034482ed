import { useId, useState } from 'react';
import { ResponsiveDialog } from '../../components/ui/dialog';
import { toast } from '../../components/ui/toast';
import { formatClockTime } from '../../lib/chapters';
import { copyText } from '../../lib/clipboard';
import { watchLink, type WatchPosition } from '../../lib/deep-link';
import { emailIntent, facebookIntent, smsIntent, twitterIntent } from '../../lib/share-intents';
import { useRecordShare, type ShareChannel } from '../../features/timelines/api/record-share';
import type { FeedTimeline } from '../../features/feed/api/types';
import './share-timeline-dialog.css';

export interface ShareTimelineDialogProps {
  timeline: Pick<FeedTimeline, 'id' | 'title'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /**
   * Where the viewer is in the player (`item` from 1, `t` seconds): the dialog then offers "Start
   * at current time", which adds them to the link (`?item=3&t=42`).
   */
  position?: WatchPosition | undefined;
}

/**
 * Share Timeline: copy the link, or open Twitter, Facebook, e-mail or SMS; each share is counted.
 * From the player, "Start at current time" makes it a link to the item and second on screen.
 */
export function ShareTimelineDialog({ timeline, open, onOpenChange, position }: ShareTimelineDialogProps) {
  const recordShare = useRecordShare();
  const [startHere, setStartHere] = useState(false);
  const startId = useId();
  const url = watchLink(window.location.origin, timeline.id, position && startHere ? position : null);
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
      {position ? (
        <div className="share-start">
          <input id={startId} type="checkbox" checked={startHere} onChange={(event) => setStartHere(event.target.checked)} aria-describedby={`${startId}-at`} />
          <label htmlFor={startId}>Start at current time</label>
          <span id={`${startId}-at`} className="share-start__at">
            {`Item ${position.item} at ${formatClockTime(position.t)}`}
          </span>
        </div>
      ) : null}
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
