import { useState, type FormEvent } from 'react';
import { ResponsiveDialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { SelectField, TextAreaField } from '../../../components/ui/form-fields';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useCreateTimeline } from '../api/create-timeline';
import type { Timeline, TimelineVisibility } from '../api/get-timeline';
import { VISIBILITY_OPTIONS } from '../lib/labels';
import { validateTimelineTitle } from '../lib/validation';

export const CREATE_FAILED_FALLBACK = 'Failed to create timeline. Please try again.';

const EMPTY = { title: '', description: '', visibility: 'private' as TimelineVisibility };

export interface CreateTimelineDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated?: (timeline: Timeline) => void;
}

/** The Create New Timeline dialog (spec 001, section 2). Closing or cancelling resets the form. */
export function CreateTimelineDialog({ open, onOpenChange, onCreated }: CreateTimelineDialogProps) {
  const [values, setValues] = useState(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const titleError = submitted ? validateTimelineTitle(values.title) : undefined;

  const reset = () => {
    setValues(EMPTY);
    setSubmitted(false);
  };

  const create = useCreateTimeline({
    onSuccess: (timeline) => {
      toast({ title: 'Timeline created successfully', description: `"${timeline.title}" has been created.` });
      reset();
      onOpenChange(false);
      onCreated?.(timeline);
    },
    onError: (error) => {
      toast({
        title: 'Error creating timeline',
        description: errorMessage(error, CREATE_FAILED_FALLBACK),
        variant: 'destructive',
      });
    },
  });

  const close = (next: boolean) => {
    if (next) return onOpenChange(true);
    if (create.isPending) return; // The answer decides what happens next.
    reset();
    onOpenChange(false);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (validateTimelineTitle(values.title) || create.isPending) return;
    const description = values.description.trim();
    create.mutate({
      title: values.title.trim(),
      ...(description ? { description } : {}),
      visibility: values.visibility,
    });
  };

  return (
    <ResponsiveDialog
      open={open}
      onOpenChange={close}
      title="Create New Timeline"
      description="Give your timeline a title and choose who can see it."
    >
      <form className="timeline-form" onSubmit={onSubmit} noValidate aria-label="Create New Timeline">
        <Field
          label="Timeline Title"
          placeholder="My summer trip"
          maxLength={200}
          value={values.title}
          error={titleError}
          onChange={(event) => setValues((current) => ({ ...current, title: event.target.value }))}
        />
        <TextAreaField
          label="Description"
          placeholder="What is this timeline about? (optional)"
          rows={3}
          maxLength={2000}
          value={values.description}
          onChange={(event) => setValues((current) => ({ ...current, description: event.target.value }))}
        />
        <SelectField
          label="Visibility"
          value={values.visibility}
          options={VISIBILITY_OPTIONS}
          hint={VISIBILITY_OPTIONS.find((option) => option.value === values.visibility)?.description}
          onValueChange={(visibility) => setValues((current) => ({ ...current, visibility }))}
        />
        <div className="dialog__footer">
          <button type="button" className="button button--secondary" onClick={() => close(false)} disabled={create.isPending}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={create.isPending}>
            {create.isPending ? 'Creating...' : 'Create Timeline'}
          </button>
        </div>
      </form>
    </ResponsiveDialog>
  );
}

export default CreateTimelineDialog;
