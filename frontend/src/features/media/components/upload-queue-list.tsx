import type { BadgeTone } from '../../../components/ui/badge';
import { Badge } from '../../../components/ui/badge';
import { formatFileSize, formatTimeLeft } from '../lib/speed';
import type { UploadItem, UploadManager, UploadStatus } from '../lib/upload-manager';

export const UPLOAD_STATUS_LABEL: Record<UploadStatus, string> = {
  pending: 'Waiting',
  uploading: 'Uploading',
  paused: 'Paused',
  processing: 'Processing',
  completed: 'Completed',
  error: 'Error',
};

const TONE: Record<UploadStatus, BadgeTone> = {
  pending: 'neutral',
  uploading: 'brand',
  paused: 'warning',
  processing: 'brand',
  completed: 'success',
  error: 'danger',
};

export interface UploadQueueListProps {
  queue: UploadManager;
  items: readonly UploadItem[];
  label: string;
  showPreview?: boolean;
}

function Preview({ item }: { item: UploadItem }) {
  if (!item.preview) return <span className="upload-row__preview upload-row__preview--empty" aria-hidden="true" />;
  return <img className="upload-row__preview" src={item.preview} alt="" width={160} height={90} />;
}

function progressText(item: UploadItem): string {
  if (item.status === 'uploading' || item.status === 'paused') {
    const sent = `${formatFileSize(item.bytesSent)} of ${formatFileSize(item.bytesTotal)}`;
    const left = item.status === 'uploading' && item.estimatedSeconds !== undefined ? `, about ${formatTimeLeft(item.estimatedSeconds)} left` : '';
    return `${sent}${left}`;
  }
  return formatFileSize(item.bytesTotal);
}

/** The rows of an upload queue: status, true progress, what is happening, and what can be done. */
export function UploadQueueList({ queue, items, label, showPreview = false }: UploadQueueListProps) {
  if (items.length === 0) return null;
  return (
    <ul className="upload-list" aria-label={label}>
      {items.map((item) => {
        const name = item.file.name;
        const phase = item.status === 'processing' ? 'processing' : 'upload';
        return (
          <li key={item.id} className={`upload-row upload-row--${item.status}`}>
            {showPreview ? <Preview item={item} /> : null}
            <div className="upload-row__body">
              <div className="upload-row__head">
                <span className="upload-row__name">{name}</span>
                <Badge tone={TONE[item.status]}>{UPLOAD_STATUS_LABEL[item.status]}</Badge>
              </div>
              <progress className="upload-row__progress" max={100} value={item.progress} aria-label={`${name} ${phase} progress`}>
                {item.progress}%
              </progress>
              <p className="upload-row__step">
                <span>{item.step}</span>
                {item.status === 'processing' || item.status === 'uploading' ? <span> · {item.progress}%</span> : null}
                <span className="upload-row__size"> · {progressText(item)}</span>
              </p>
              {item.error ? (
                <p className="upload-row__error" role="alert">
                  {item.error}
                </p>
              ) : null}
            </div>
            <div className="upload-row__actions">
              {item.status === 'uploading' ? (
                <button type="button" className="button button--ghost button--sm" onClick={() => queue.pause(item.id)} aria-label={`Pause ${name}`}>
                  Pause
                </button>
              ) : null}
              {item.status === 'paused' ? (
                <button type="button" className="button button--secondary button--sm" onClick={() => queue.resume(item.id)} aria-label={`Resume ${name}`}>
                  Resume
                </button>
              ) : null}
              {item.status === 'error' ? (
                <button type="button" className="button button--secondary button--sm" onClick={() => queue.retry(item.id)} aria-label={`Retry ${name}`}>
                  Retry
                </button>
              ) : null}
              {item.status === 'error' || item.status === 'completed' ? (
                <button type="button" className="button button--ghost button--sm" onClick={() => queue.remove(item.id)} aria-label={`Remove ${name}`}>
                  Remove
                </button>
              ) : null}
              {item.status === 'pending' || item.status === 'paused' ? (
                <button type="button" className="button button--ghost button--sm" onClick={() => queue.remove(item.id)} aria-label={`Cancel ${name}`}>
                  Cancel
                </button>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
