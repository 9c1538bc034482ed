import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import { toast } from '../../../components/ui/toast';

/**
 * Hands picked or dropped files to `onFiles`; if taking them in fails, says so with spec 001's
 * words (section 8, 'file pick failure') instead of leaving the person with nothing happening.
 */
export function takePickedFiles(files: File[], onFiles: (files: File[]) => void): void {
  if (files.length === 0) return;
  try {
    onFiles(files);
  } catch (error) {
    console.error('Could not take the selected files', error);
    toast({ title: 'Upload Error', description: 'Failed to process selected files. Please try again.', variant: 'destructive' });
  }
}

export interface DropZoneProps {
  /** Receives every file dropped or chosen. */
  onFiles: (files: File[]) => void;
  accept: string;
  title: ReactNode;
  hint?: ReactNode;
  chooseLabel?: string;
  /** Names the file input for assistive technology. */
  inputLabel: string;
  disabled?: boolean;
  children?: ReactNode;
}

/** A drop target with a Choose Files button; the button is the keyboard and touch path. */
export function DropZone({ onFiles, accept, title, hint, chooseLabel = 'Choose Files', inputLabel, disabled = false, children }: DropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    takePickedFiles(Array.from(event.dataTransfer.files), onFiles);
  };

  return (
    <div
      className={`drop-zone${over ? ' is-over' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <p className="drop-zone__title">{title}</p>
      {hint ? <p className="drop-zone__hint">{hint}</p> : null}
      <div className="drop-zone__actions">
        <button type="button" className="button button--primary" disabled={disabled} onClick={() => input.current?.click()}>
          {chooseLabel}
        </button>
        {children}
      </div>
      <input
        ref={input}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-label={inputLabel}
        accept={accept}
        multiple
        disabled={disabled}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          takePickedFiles(files, onFiles);
        }}
      />
    </div>
  );
}
