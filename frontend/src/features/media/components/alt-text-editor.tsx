import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useDeferAltText, useSetAltText } from '../api/alt-text';
import { ALT_TEXT_LIMIT, altLength, altTextProblem, type AltKind } from '../lib/alt-text';
import './alt-text.css';

export interface AltTextEditorProps {
  /** The item's timeline, whose lists are refreshed after a change (all timelines' when absent). */
  timelineId?: string;
  mediaId: string;
  kind: AltKind;
  /** The item's title or file name, naming it in the labels. */
  name: string;
  initial?: string | null;
  /** Offers "Add later" (the upload prompt). */
  offerLater?: boolean;
  /** Saved, or put off with "Add later". */
  onDone?: (outcome: 'saved' | 'later') => void;
  onCancel?: () => void;
  autoFocus?: boolean;
}

const HINT: Record<AltKind, string> = {
  image: "Describe what the image shows for people who can't see it.",
  video: "Say briefly what the video shows, for people who can't see it.",
};

/** Alt text of an image or the description of a video: a text box with its limit, Save, and (at upload) "Add later". */
export function AltTextEditor({ timelineId, mediaId, kind, name, initial, offerLater = false, onDone, onCancel, autoFocus = false }: AltTextEditorProps) {
  const [text, setText] = useState(initial ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSetAltText(timelineId);
  const later = useDeferAltText(timelineId);
  const ids = { field: useId(), hint: useId(), count: useId(), error: useId() };
  const busy = save.isPending || later.isPending;
  const label = kind === 'image' ? `Alt text for ${name}` : `Description of ${name}`;
  const length = altLength(text);
  const limit = ALT_TEXT_LIMIT[kind];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const local = altTextProblem(kind, text);
    if (local) return setProblem(local);
    setProblem(null);
    save.mutate(
      { mediaId, altText: text.trim() },
      {
        onSuccess: () => onDone?.('saved'),
        onError: (error) => setProblem(errorMessage(error, `The ${kind === 'image' ? 'alt text' : 'description'} could not be saved. Please try again.`)),
      },
    );
  };

  const putOff = () => {
    setProblem(null);
    later.mutate(mediaId, {
      onSuccess: () => onDone?.('later'),
      onError: (error) => setProblem(errorMessage(error, 'That could not be saved. Please try again.')),
    });
  };

  return (
    <form className="alt-editor" onSubmit={submit} aria-label={label} noValidate>
      <label className="alt-editor__label" htmlFor={ids.field}>
        {label}
      </label>
      <p className="alt-editor__hint muted" id={ids.hint}>
        {HINT[kind]}
      </p>
      <textarea
        id={ids.field}
        className="field__input alt-editor__input"
        rows={3}
        value={text}
        disabled={busy}
        autoFocus={autoFocus}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${ids.hint} ${ids.count}${problem ? ` ${ids.error}` : ''}`}
        onChange={(event) => {
          setText(event.target.value);
          setProblem(null);
        }}
      />
      <p className={`alt-editor__count${length > limit ? ' alt-editor__count--over' : ''}`} id={ids.count}>
        {length} / {limit} characters
      </p>
      {problem ? (
        <p className="field__error" id={ids.error} role="alert">
          {problem}
        </p>
      ) : null}
      <div className="alt-editor__actions">
        <button type="submit" className="button button--primary button--sm" disabled={busy}>
          {save.isPending ? 'Saving...' : 'Save'}
        </button>
        {offerLater ? (
          <button type="button" className="button button--ghost button--sm" disabled={busy} onClick={putOff}>
            Add later
          </button>
        ) : null}
        {onCancel ? (
          <button type="button" className="button button--ghost button--sm" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

export default AltTextEditor;
