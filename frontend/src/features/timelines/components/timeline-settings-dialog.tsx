import * as Tabs from '@radix-ui/react-tabs';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ResponsiveDialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { TextAreaField } from '../../../components/ui/form-fields';
import { Switch } from '../../../components/ui/switch';
import { toast } from '../../../components/ui/toast';
import { useDeleteTimeline } from '../api/delete-timeline';
import type { Timeline } from '../api/get-timeline';
import { useUpdateTimeline, type UpdateTimelineInput } from '../api/update-timeline';
import { useCopyTimelineLink } from '../hooks/use-copy-timeline-link';
import { statusLabel, VISIBILITY_OPTIONS } from '../lib/labels';
import { timelineEmbedCode, timelineShareLink, timelineWatchLink } from '../lib/share-links';
import { validateTimelineTitle } from '../lib/validation';
import './timelines.css';

export type SettingsTimeline = Pick<Timeline, 'id' | 'title' | 'description' | 'visibility' | 'status' | 'role'> & Partial<Pick<Timeline, 'sensitive'>>;

export const UPDATE_FAILED = 'Failed to update timeline. Please try again.';
export const DELETE_FAILED = 'Failed to delete timeline. Please try again.';

export type SettingsTab = 'general' | 'privacy' | 'sharing' | 'advanced';

export interface TimelineSettingsDialogProps {
  timeline: SettingsTimeline;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDeleted: () => void;
  initialTab?: SettingsTab;
  /** Shown above Publish Timeline while it is a draft (the page's check of the items still missing alt text). */
  publishCheck?: ReactNode;
}

function useSaveTimeline(id: string) {
  const update = useUpdateTimeline({
    onSuccess: () => toast({ title: 'Timeline Updated', description: 'Your changes have been saved successfully.' }),
    onError: () => toast({ title: UPDATE_FAILED, variant: 'destructive' }),
  });
  return { save: (changes: UpdateTimelineInput) => update.mutate({ id, changes }), pending: update.isPending };
}

function GeneralTab({ timeline }: { timeline: SettingsTimeline }) {
  const [title, setTitle] = useState(timeline.title);
  const [description, setDescription] = useState(timeline.description ?? '');
  const [submitted, setSubmitted] = useState(false);
  const { save, pending } = useSaveTimeline(timeline.id);
  const titleError = submitted ? validateTimelineTitle(title) : undefined;

  const changes: UpdateTimelineInput = {};
  if (title.trim() !== timeline.title) changes.title = title.trim();
  if (description.trim() !== (timeline.description ?? '')) changes.description = description.trim();
  const changed = Object.keys(changes).length > 0;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (validateTimelineTitle(title) || !changed || pending) return;
    save(changes);
  };

  return (
    <form className="timeline-form" onSubmit={onSubmit} noValidate aria-label="General settings">
      <Field label="Title" value={title} maxLength={200} error={titleError} onChange={(event) => setTitle(event.target.value)} />
      <TextAreaField
        label="Description"
        rows={4}
        maxLength={2000}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
      <div>
        <button type="submit" className="button button--primary" disabled={pending || !changed}>
          {pending ? 'Saving...' : 'Save Changes'}
        </button>
      </div>
    </form>
  );
}

function PrivacyTab({ timeline }: { timeline: SettingsTimeline }) {
  const { save, pending } = useSaveTimeline(timeline.id);
  return (
    <div role="group" aria-label="Who can see this timeline">
      {VISIBILITY_OPTIONS.map((option) => (
        <Switch
          key={option.value}
          label={option.label}
          description={option.description}
          checked={timeline.visibility === option.value}
          disabled={pending}
          // Turning a switch on chooses that visibility; turning the current one off changes nothing.
          onCheckedChange={(on) => {
            if (on && timeline.visibility !== option.value) save({ visibility: option.value });
          }}
        />
      ))}
      <Switch
        label="Sensitive content"
        description="Viewers see a blurred cover with a Show button first, unless they always show sensitive media."
        checked={timeline.sensitive ?? false}
        disabled={pending}
        onCheckedChange={(on) => save({ sensitive: on })}
      />
    </div>
  );
}

function CopyRow({ label, value, copyLabel, multiline, onCopy }: { label: string; value: string; copyLabel: string; multiline?: boolean; onCopy: () => void }) {
  return (
    <div className="copy-row">
      {multiline ? (
        <TextAreaField label={label} value={value} readOnly rows={3} onFocus={(event) => event.currentTarget.select()} />
      ) : (
        <Field label={label} value={value} readOnly onFocus={(event) => event.currentTarget.select()} />
      )}
      <button type="button" className="button button--secondary copy-row__button" onClick={onCopy}>
        {copyLabel}
      </button>
    </div>
  );
}

function SharingTab({ timeline }: { timeline: SettingsTimeline }) {
  const copy = useCopyTimelineLink();
  const origin = window.location.origin;
  const shareLink = timelineShareLink(origin, timeline.id);
  const watchLink = timelineWatchLink(origin, timeline.id);
  const embedCode = timelineEmbedCode(origin, timeline.id, timeline.title);
  return (
    <div className="settings-tab">
      {timeline.visibility === 'private' ? (
        <p className="notice">This timeline is private: only you and your collaborators can open these links.</p>
      ) : null}
      <CopyRow label="Share link" value={shareLink} copyLabel="Copy share link" onCopy={() => void copy(timeline.id, shareLink, 'share-link')} />
      <CopyRow label="Watch link" value={watchLink} copyLabel="Copy watch link" onCopy={() => void copy(timeline.id, watchLink, 'watch-link')} />
      {/* An embed plays for anyone on another site: a private timeline's would only say it is unavailable. */}
      {timeline.visibility === 'private' ? (
        <p className="muted">An embed code is offered once the timeline is public or unlisted.</p>
      ) : (
        <>
          {timeline.status !== 'published' ? <p className="muted">The embedded player shows the timeline once it is published.</p> : null}
          <CopyRow
            label="Embed code"
            value={embedCode}
            copyLabel="Copy embed code"
            multiline
            onCopy={() => void copy(timeline.id, embedCode, 'embed')}
          />
        </>
      )}
    </div>
  );
}

function AdvancedTab({ timeline, onDeleted, publishCheck }: { timeline: SettingsTimeline; onDeleted: () => void; publishCheck?: ReactNode }) {
  const { save, pending } = useSaveTimeline(timeline.id);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteTimeline({
    onSuccess: () => {
      setConfirming(false);
      toast({ title: 'Timeline Deleted', description: 'Your timeline and all its videos have been removed.' });
      onDeleted();
    },
    onError: () => {
      setConfirming(false);
      toast({ title: DELETE_FAILED, variant: 'destructive' });
    },
  });
  const published = timeline.status === 'published';

  return (
    <div className="settings-tab">
      <section className="settings-section" aria-labelledby="settings-status">
        <h3 className="settings-section__title" id="settings-status">
          Status
        </h3>
        <p className="settings-section__text">
          This timeline is <strong>{statusLabel(timeline.status).toLowerCase()}</strong>.{' '}
          {published ? 'It is live for the people its visibility allows.' : 'Publish it to make it live for viewers.'}
        </p>
        {published ? null : publishCheck}
        <div>
          <button
            type="button"
            className={`button ${published ? 'button--secondary' : 'button--primary'}`}
            disabled={pending}
            onClick={() => save({ status: published ? 'draft' : 'published' })}
          >
            {published ? 'Unpublish Timeline' : 'Publish Timeline'}
          </button>
        </div>
      </section>
      <section className="settings-section settings-section--danger" aria-labelledby="settings-danger">
        <h3 className="settings-section__title" id="settings-danger">
          Delete timeline
        </h3>
        <p className="settings-section__text">Deleting removes the timeline and all its videos for everyone. It cannot be undone.</p>
        <div>
          <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
            Delete Timeline
          </button>
        </div>
      </section>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete this timeline?"
        description={`"${timeline.title}" and all its videos will be permanently deleted. This action cannot be undone.`}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={() => remove.mutate(timeline.id)}
      />
    </div>
  );
}

/**
 * Timeline Settings (spec 001, sections 2 and 4): General, Privacy, Sharing and Advanced. Only the
 * owner gets it; for anyone else it renders nothing.
 */
export function TimelineSettingsDialog({ timeline, open, onOpenChange, onDeleted, initialTab = 'general', publishCheck }: TimelineSettingsDialogProps) {
  if (timeline.role !== 'owner') return null;
  return (
    <ResponsiveDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title="Timeline Settings"
      description={`Manage "${timeline.title}": details, privacy, sharing and status.`}
      footer={
        <Link to={`/timeline/${encodeURIComponent(timeline.id)}`} className="button button--secondary" onClick={() => onOpenChange(false)}>
          Go to Creator Studio
        </Link>
      }
    >
      {/* Every tab stays mounted, one over the other: the dialog keeps the height of the tallest
          instead of jumping at each tab, and an edit survives a look at another tab. */}
      <Tabs.Root className="tabs tabs--stacked" defaultValue={initialTab}>
        <Tabs.List className="tabs__list" aria-label="Settings sections">
          <Tabs.Trigger className="tabs__trigger" value="general">
            General
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__trigger" value="privacy">
            Privacy
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__trigger" value="sharing">
            Sharing
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__trigger" value="advanced">
            Advanced
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="tabs__panel" value="general" forceMount>
          <GeneralTab timeline={timeline} />
        </Tabs.Content>
        <Tabs.Content className="tabs__panel" value="privacy" forceMount>
          <PrivacyTab timeline={timeline} />
        </Tabs.Content>
        <Tabs.Content className="tabs__panel" value="sharing" forceMount>
          <SharingTab timeline={timeline} />
        </Tabs.Content>
        <Tabs.Content className="tabs__panel" value="advanced" forceMount>
          <AdvancedTab
            timeline={timeline}
            publishCheck={publishCheck}
            onDeleted={() => {
              onOpenChange(false);
              onDeleted();
            }}
          />
        </Tabs.Content>
      </Tabs.Root>
    </ResponsiveDialog>
  );
}
