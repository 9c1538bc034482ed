import { useEffect, useState } from 'react';
import { discardInterruptedUpload, findInterruptedUploads, type InterruptedUpload } from '../lib/interrupted-uploads';
import { formatFileSize } from '../lib/speed';
import type { UploadItem } from '../lib/upload-manager';

export interface InterruptedUploadsProps {
  timelineId: string;
  /** The queue's items: an upload chosen again (same name and size) is no longer listed. */
  items: readonly UploadItem[];
  /** For tests. */
  find?: (timelineId: string) => Promise<InterruptedUpload[]>;
  discard?: (upload: InterruptedUpload) => Promise<void>;
}

/**
 * Uploads an earlier visit left unfinished (the tab was closed or reloaded). The browser cannot
 * reopen a file by itself, so the creator is asked to choose it again; it then continues from the
 * bytes the server already has.
 */
export function InterruptedUploads({ timelineId, items, find = findInterruptedUploads, discard = discardInterruptedUpload }: InterruptedUploadsProps) {
  const [entries, setEntries] = useState<InterruptedUpload[]>([]);
  useEffect(() => {
    let live = true;
    void find(timelineId).then((found) => {
      if (live) setEntries(found);
    });
    return () => {
      live = false;
    };
  }, [find, timelineId]);

  const visible = entries.filter((entry) => !items.some((item) => item.file.name === entry.fileName && item.file.size === entry.size));
  if (visible.length === 0) return null;

  const drop = (entry: InterruptedUpload) => {
    setEntries((current) => current.filter((e) => e.key !== entry.key));
    void discard(entry);
  };

  return (
    <section className="interrupted-uploads" aria-labelledby={`interrupted-${timelineId}`}>
      <h3 id={`interrupted-${timelineId}`} className="interrupted-uploads__title">
        {visible.length === 1 ? 'An upload was interrupted' : `${visible.length} uploads were interrupted`}
      </h3>
      <p className="interrupted-uploads__hint">Choose the same file again to continue where it stopped.</p>
      <ul className="interrupted-uploads__list">
        {visible.map((entry) => (
          <li key={entry.key} className="interrupted-uploads__item">
            <span className="interrupted-uploads__name">{entry.fileName}</span>
            <span className="interrupted-uploads__size">{formatFileSize(entry.size)}</span>
            <button type="button" className="button button--ghost button--sm" onClick={() => drop(entry)} aria-label={`Discard the upload of ${entry.fileName}`}>
              Discard
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
