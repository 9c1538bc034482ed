import { useState } from 'react';
import { TextAreaField } from '../../../components/ui/form-fields';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAppealDecision } from '../api/appeal-decision';
import { type ModerationNotice, useModerationNotices } from '../api/get-moderation-notices';
import './moderation.css';

const APPEAL_STATE: Record<string, string> = { pending: 'Appeal sent: moderators will look again', upheld: 'Appeal answered: the decision stands', granted: 'Appeal granted: the decision was undone' };

function NoticeCard({ notice }: { notice: ModerationNotice }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const appeal = useAppealDecision();
  return (
    <li className="moderation__card">
      <strong>{notice.summary}</strong>
      <p>Reason: {notice.reason}</p>
      <div className="moderation__meta">
        <time dateTime={notice.createdAt}>{new Date(notice.createdAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</time>
      </div>
      {notice.appealStatus ? (
        <p role="status">{APPEAL_STATE[notice.appealStatus] ?? notice.appealStatus}</p>
      ) : open ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!text.trim()) return setError('Please say why the decision should be undone.');
            appeal.mutate({ actionId: notice.actionId, text: text.trim() }, { onSuccess: () => toast({ title: 'Appeal sent' }), onError: (err) => setError(errorMessage(err, 'Your appeal could not be sent.')) });
          }}
        >
          <TextAreaField label="Why should moderators look again?" hint="You may appeal each decision once." value={text} maxLength={1000} rows={3} error={error} onChange={(e) => { setText(e.target.value); setError(undefined); }} />
          <div className="moderation__actions">
            <button type="submit" className="button button--primary button--sm" disabled={appeal.isPending}>Send appeal</button>
            <button type="button" className="button button--secondary button--sm" onClick={() => setOpen(false)}>Cancel</button>
          </div>
        </form>
      ) : (
        <div className="moderation__actions">
          <button type="button" className="button button--secondary button--sm" onClick={() => setOpen(true)}>Appeal</button>
        </div>
      )}
    </li>
  );
}

/** /moderation/notices: what moderators did about the person's content or account, and why; each may be appealed once. */
export function ModerationNotices() {
  const notices = useModerationNotices();
  return (
    <div className="moderation">
      <h1>Moderation notices</h1>
      {notices.isPending ? <p>Loading…</p> : notices.data?.length ? (
        <ul className="moderation__list">{notices.data.map((n) => <NoticeCard key={n.actionId} notice={n} />)}</ul>
      ) : <p>Moderators have not acted on anything of yours.</p>}
    </div>
  );
}
