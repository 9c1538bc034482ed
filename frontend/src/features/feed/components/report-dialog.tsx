import { useId, useState, type FormEvent } from 'react';
import { ResponsiveDialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { formatRelativeTime } from '../../../lib/format';
import { useCreateReport } from '../api/create-report';
import type { CreateReport, ReportReason } from '../api/types';
import '../../../components/ui/field.css';

export const REPORT_REASONS: { value: ReportReason; label: string }[] = [
  { value: 'spam', label: 'Spam' },
  { value: 'harassment', label: 'Harassment or bullying' },
  { value: 'hate', label: 'Hate speech' },
  { value: 'violence', label: 'Violence' },
  { value: 'nudity', label: 'Nudity or sexual content' },
  { value: 'misinformation', label: 'False information' },
  { value: 'other', label: 'Something else' },
];

const TITLES: Record<CreateReport['contentType'], string> = {
  post: 'Report Post',
  timeline: 'Report Timeline',
  video: 'Report Video',
  post_comment: 'Report Comment',
  timeline_comment: 'Report Comment',
  video_comment: 'Report Comment',
};

/** Where the first report of the item stands, as the server answered it when the item is reported again. */
const STANDING: Record<string, string> = {
  pending: 'It is waiting for review.',
  reviewed: 'It is being reviewed.',
  resolved: 'Moderators have acted on it.',
  dismissed: 'Moderators looked at it and left it up.',
};

/** Only posts and timelines leave the feed once reported. */
const leavesFeed = (type: CreateReport['contentType']) => type === 'post' || type === 'timeline';

export interface ReportDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  target: Pick<CreateReport, 'contentType' | 'contentId'>;
  /** The dialog's title when the type's own does not fit (an image is reported as a video). */
  title?: string;
}

/** Why an item is reported; once sent, the item leaves the feed. */
export function ReportDialog({ open, onOpenChange, target, title }: ReportDialogProps) {
  const id = useId();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [description, setDescription] = useState('');
  const report = useCreateReport({
    onSuccess: ({ report: filed, created }) => {
      onOpenChange(false);
      if (!created) {
        // The server keeps the first report of an item by the same person and answers with it.
        toast({ title: 'Already reported', description: `You reported this ${formatRelativeTime(filed.createdAt).toLowerCase()}. ${STANDING[filed.status] ?? ''}`.trim() });
        return;
      }
      toast({
        title: 'Report sent',
        description: leavesFeed(target.contentType) ? "Thanks for telling us. We'll review it, and you won't see it in your feed." : "Thanks for telling us. We'll review it.",
      });
    },
    onError: (error) => toast({ title: 'Could not send the report', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason || report.isPending) return;
    const details = description.trim();
    report.mutate({ ...target, reason, ...(details ? { description: details } : {}) });
  };

  return (
    <ResponsiveDialog
      open={open}
      onOpenChange={onOpenChange}
      title={title ?? TITLES[target.contentType]}
      description="Tell us what is wrong with it."
      footer={
        <>
          <button type="button" className="button button--secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
          <button type="submit" form={`${id}-form`} className="button button--danger" disabled={!reason || report.isPending}>
            {report.isPending ? 'Sending...' : 'Report'}
          </button>
        </>
      }
    >
      <form id={`${id}-form`} onSubmit={submit} className="report-form">
        <fieldset className="report-form__reasons">
          <legend className="field__label">Reason</legend>
          {REPORT_REASONS.map((option) => (
            <label key={option.value} className="report-form__reason">
              <input
                type="radio"
                name={`${id}-reason`}
                value={option.value}
                checked={reason === option.value}
                onChange={() => setReason(option.value)}
              />
              {option.label}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-details`}>
            Details (optional)
          </label>
          <textarea
            id={`${id}-details`}
            className="field__input"
            rows={3}
            maxLength={1000}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </div>
      </form>
    </ResponsiveDialog>
  );
}
