import { useState } from 'react';
import { Link } from 'react-router';
import { PageState } from '../../../components/ui/page-state';
import { SelectField, TextAreaField } from '../../../components/ui/form-fields';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAuditLog, type AuditEntry } from '../api/get-audit-log';
import { type QueueAppeal, type QueueItem, useModerationQueue } from '../api/get-moderation-queue';
import { useStaffRole } from '../api/get-staff-role';
import { useDecideAppeal } from '../api/decide-appeal';
import { type ItemDecision, useDecideItem } from '../api/decide-item';
import { useLiftSuspension } from '../api/lift-suspension';
import { useSuspendAccount } from '../api/suspend-account';
import './moderation.css';

const NOUN: Record<string, string> = { post: 'Post', timeline: 'Timeline', video: 'Video or image', post_comment: 'Comment on a post', timeline_comment: 'Comment on a timeline', video_comment: 'Comment on a video' };
const DONE: Record<ItemDecision['action'], string> = { dismiss: 'Reports dismissed', hide: 'Hidden everywhere', restore: 'Restored', sensitive: 'Marked sensitive', warn: 'Author warned' };
const PERIODS = [
  { value: '1', label: '1 day' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: 'good', label: 'For good' },
] as const;
type Period = (typeof PERIODS)[number]['value'];

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** One reported item: what it says, who reported it and why, and the decisions. */
function QueueCard({ item }: { item: QueueItem }) {
  const [reason, setReason] = useState('');
  const [period, setPeriod] = useState<Period>('7');
  const [error, setError] = useState<string>();
  const decide = useDecideItem();
  const suspend = useSuspendAccount();
  const lift = useLiftSuspension();
  const busy = decide.isPending || suspend.isPending || lift.isPending;
  const need = () => {
    if (reason.trim()) return true;
    setError('Please give a reason: the author is told, the audit log keeps it.');
    return false;
  };
  const act = (action: ItemDecision['action']) => {
    if (!need()) return;
    decide.mutate({ contentType: item.contentType, contentId: item.contentId, action, reason: reason.trim() }, {
      onSuccess: () => toast({ title: DONE[action] }),
      onError: (e) => setError(errorMessage(e, 'That did not work. Please try again.')),
    });
  };
  const author = item.item;
  return (
    <li className="moderation__card" aria-label={`${NOUN[item.contentType] ?? 'Item'} reported by ${item.reporters}`}>
      <div className="moderation__meta">
        <strong>{NOUN[item.contentType] ?? item.contentType}</strong>
        <span>
          {item.reporters} {item.reporters === 1 ? 'report' : 'reports'}
        </span>
        <span>{item.reasons.map((r) => `${r.reason} ×${r.count}`).join(', ')}</span>
        <span>Last reported {when(item.lastReportedAt)}</span>
      </div>
      {author ? (
        <>
          <div className="moderation__meta">
            <span>
              by {author.authorDisplayName ?? 'someone'} {author.authorUsername ? `@${author.authorUsername}` : ''}
            </span>
            {author.hidden ? <span>Hidden</span> : null}
            {author.sensitive ? <span>Sensitive</span> : null}
            {author.authorSuspended ? <span>Author suspended</span> : null}
            <Link to={author.link}>Open in context</Link>
          </div>
          <blockquote className="moderation__quote">{author.text}</blockquote>
        </>
      ) : (
        <p>Its author has deleted it.</p>
      )}
      {item.notes.length > 0 ? (
        <ul className="moderation__notes" aria-label="What reporters said">
          {item.notes.map((note, i) => (
            <li key={i}>{note}</li>
          ))}
        </ul>
      ) : null}
      <TextAreaField label="Reason" hint="The author is told it; the reporters are told only the outcome." value={reason} maxLength={1000} rows={2} error={error} onChange={(e) => { setReason(e.target.value); setError(undefined); }} />
      <div className="moderation__actions">
        <button type="button" className="button button--secondary button--sm" disabled={busy} onClick={() => act('dismiss')}>Dismiss</button>
        {author && !author.hidden ? <button type="button" className="button button--danger button--sm" disabled={busy} onClick={() => act('hide')}>Hide</button> : null}
        {author?.hidden ? <button type="button" className="button button--secondary button--sm" disabled={busy} onClick={() => act('restore')}>Restore</button> : null}
        {author && !author.sensitive ? <button type="button" className="button button--secondary button--sm" disabled={busy} onClick={() => act('sensitive')}>Mark sensitive</button> : null}
        {author ? <button type="button" className="button button--secondary button--sm" disabled={busy} onClick={() => act('warn')}>Warn author</button> : null}
      </div>
      {author ? (
        <div className="moderation__actions">
          {author.authorSuspended ? (
            <button type="button" className="button button--secondary button--sm" disabled={busy} onClick={() => need() && lift.mutate({ userId: author.authorId, reason: reason.trim() }, { onSuccess: () => toast({ title: 'Suspension lifted' }), onError: (e) => setError(errorMessage(e, 'That did not work.')) })}>
              Lift suspension
            </button>
          ) : (
            <>
              <SelectField label="Suspend for" value={period} options={PERIODS.map((p) => ({ value: p.value, label: p.label }))} onValueChange={setPeriod} />
              <button
                type="button"
                className="button button--danger button--sm"
                disabled={busy}
                onClick={() => need() && suspend.mutate({ userId: author.authorId, reason: reason.trim(), ...(period === 'good' ? {} : { days: Number(period) }) }, { onSuccess: () => toast({ title: 'Account suspended' }), onError: (e) => setError(errorMessage(e, 'That did not work.')) })}
              >
                Suspend author
              </button>
            </>
          )}
        </div>
      ) : null}
    </li>
  );
}

function AppealCard({ appeal }: { appeal: QueueAppeal }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const decide = useDecideAppeal();
  const answer = (outcome: 'uphold' | 'grant') => {
    if (!reason.trim()) return setError('Please give a reason: the author is told it.');
    decide.mutate({ appealId: appeal.id, outcome, reason: reason.trim() }, {
      onSuccess: () => toast({ title: outcome === 'grant' ? 'Appeal granted' : 'Decision upheld' }),
      onError: (e) => setError(errorMessage(e, 'That did not work.')),
    });
  };
  return (
    <li className="moderation__card" aria-label={`Appeal by ${appeal.authorUsername ?? 'someone'}`}>
      <div className="moderation__meta">
        <strong>Appeal of “{appeal.action}”</strong>
        <span>by @{appeal.authorUsername ?? 'someone'}</span>
        <span>{when(appeal.createdAt)}</span>
      </div>
      <p>Decision: {appeal.actionReason}</p>
      <blockquote className="moderation__quote">{appeal.text}</blockquote>
      <TextAreaField label="Reason" value={reason} maxLength={1000} rows={2} error={error} onChange={(e) => { setReason(e.target.value); setError(undefined); }} />
      <div className="moderation__actions">
        <button type="button" className="button button--secondary button--sm" disabled={decide.isPending} onClick={() => answer('uphold')}>Uphold</button>
        <button type="button" className="button button--primary button--sm" disabled={decide.isPending} onClick={() => answer('grant')}>Grant and undo</button>
      </div>
    </li>
  );
}

function AuditLine({ entry }: { entry: AuditEntry }) {
  const who = entry.moderatorUsername ? `@${entry.moderatorUsername}` : entry.action === 'appeal' ? 'the author' : 'the operator';
  const about = entry.subjectUsername ? ` about @${entry.subjectUsername}` : '';
  const until = entry.action === 'suspend' ? (entry.until ? ` until ${when(entry.until)}` : ' for good') : '';
  return (
    <li className="moderation__log">
      <time dateTime={entry.createdAt}>{when(entry.createdAt)}</time> · {who}: <strong>{entry.action}</strong>
      {entry.contentType ? ` (${entry.contentType})` : ''}
      {about}
      {until} — {entry.reason}
    </li>
  );
}

/** /moderation: the report queue, appeals and the audit log, for moderators and admins only. */
export function ModerationDesk() {
  const role = useStaffRole();
  const staff = role.data === 'moderator' || role.data === 'admin';
  const queue = useModerationQueue(staff);
  const audit = useAuditLog(staff);
  if (role.isPending) return null;
  if (!staff) {
    return (
      <PageState title="Page Not Found">
        <p>The page you are looking for doesn&apos;t exist or has moved.</p>
      </PageState>
    );
  }
  return (
    <div className="moderation">
      <h1>Moderation</h1>
      <section className="moderation__section" aria-labelledby="moderation-queue">
        <h2 id="moderation-queue">Reports</h2>
        {queue.isPending ? <p>Loading…</p> : queue.data?.items.length ? (
          <ul className="moderation__list">{queue.data.items.map((item) => <QueueCard key={`${item.contentType}:${item.contentId}`} item={item} />)}</ul>
        ) : <p>Nothing waits for a decision.</p>}
      </section>
      <section className="moderation__section" aria-labelledby="moderation-appeals">
        <h2 id="moderation-appeals">Appeals</h2>
        {queue.data?.appeals.length ? <ul className="moderation__list">{queue.data.appeals.map((a) => <AppealCard key={a.id} appeal={a} />)}</ul> : <p>No appeals wait.</p>}
      </section>
      <section className="moderation__section" aria-labelledby="moderation-audit">
        <h2 id="moderation-audit">Audit log</h2>
        {audit.data?.length ? <ul className="moderation__list">{audit.data.map((e) => <AuditLine key={e.id} entry={e} />)}</ul> : <p>Nothing yet.</p>}
      </section>
    </div>
  );
}
