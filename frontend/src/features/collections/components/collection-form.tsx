import { useState, type FormEvent, type ReactNode } from 'react';
import { Field } from '../../../components/ui/field';
import { TextAreaField } from '../../../components/ui/form-fields';
import { Switch } from '../../../components/ui/switch';

export const NAME_REQUIRED = 'Collection name is required';
export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 500;

export interface CollectionFormValues {
  name: string;
  description: string;
  isPublic: boolean;
}

export const EMPTY_COLLECTION: CollectionFormValues = { name: '', description: '', isPublic: true };

export function validateCollectionName(name: string): string | undefined {
  if (!name.trim()) return NAME_REQUIRED;
  if (name.trim().length > NAME_MAX) return `Collection name must be at most ${NAME_MAX} characters`;
  return undefined;
}

export interface CollectionFormProps {
  initial?: CollectionFormValues;
  /** An accessible name for the form. */
  label: string;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  onSubmit: (values: CollectionFormValues) => void;
  onCancel: () => void;
  /** Fewer fields (the Save sheet's quick "New collection"). */
  compact?: boolean;
  footerClassName?: string;
  children?: ReactNode;
}

/** Name (required, trimmed), description (optional) and public or private. */
export function CollectionForm({
  initial = EMPTY_COLLECTION,
  label,
  pending,
  submitLabel,
  pendingLabel,
  onSubmit,
  onCancel,
  compact = false,
  footerClassName = 'dialog__footer',
}: CollectionFormProps) {
  const [values, setValues] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const nameError = submitted ? validateCollectionName(values.name) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setSubmitted(true);
    if (validateCollectionName(values.name) || pending) return;
    onSubmit(values);
  };

  return (
    <form className="collection-form" onSubmit={submit} noValidate aria-label={label}>
      <Field
        label="Name"
        placeholder="Road trips"
        maxLength={NAME_MAX}
        value={values.name}
        error={nameError}
        autoComplete="off"
        onChange={(event) => setValues((current) => ({ ...current, name: event.target.value }))}
      />
      {compact ? null : (
        <TextAreaField
          label="Description"
          placeholder="What is this collection about? (optional)"
          rows={3}
          maxLength={DESCRIPTION_MAX}
          value={values.description}
          onChange={(event) => setValues((current) => ({ ...current, description: event.target.value }))}
        />
      )}
      <Switch
        label="Public"
        description={values.isPublic ? 'Anyone can see this collection.' : 'Only you can see this collection.'}
        checked={values.isPublic}
        onCheckedChange={(isPublic) => setValues((current) => ({ ...current, isPublic }))}
      />
      <div className={footerClassName}>
        <button type="button" className="button button--secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}
