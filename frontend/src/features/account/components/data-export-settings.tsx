import { errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { type DataExport, useDataExport } from '../api/get-data-export';
import { useStartDataExport } from '../api/start-data-export';

const PHASES: Record<string, string> = {
  waiting: 'Waiting to start',
  records: 'Gathering your profile, posts, timelines and activity',
  files: 'Copying your original files',
  finishing: 'Finishing the archive',
  done: 'Ready',
};

/** '3 PM' style times are ambiguous across days: the date and the time, in the viewer's time zone. */
function formatMoment(value: string | undefined | null): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${formatDate(value)} at ${date.toLocaleTimeString('en', { hour: 'numeric', minute: '2-digit' })}`;
}

function formatSize(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

function Progress({ current }: { current: DataExport }) {
  return (
    <div className="data-export__progress">
      <progress className="data-export__bar" max={100} value={current.progress} aria-labelledby="data-export-phase" aria-valuetext={`${current.progress}%`} />
      <p id="data-export-phase" className="data-export__text" role="status">
        {PHASES[current.phase] ?? 'Working'} · {current.progress}%
      </p>
    </div>
  );
}

/**
 * "Download your data": start an archive of everything the person keeps here, follow it while the
 * worker gathers it, download it while its link lasts (seven days), then start another (one a day).
 */
export function DataExportSettings() {
  const { data, isError } = useDataExport();
  const start = useStartDataExport();
  const current = data?.export ?? null;
  const running = current?.status === 'queued' || current?.status === 'processing';
  const nextAt = data?.nextExportAt ?? null;
  const canStart = !!data && !running && !nextAt && !start.isPending;

  return (
    <section className="card settings__form data-export" aria-labelledby="data-export-title">
      <h2 id="data-export-title" className="settings__heading">
        Download your data
      </h2>
      <p className="data-export__intro">
        Get a copy of everything you keep here in one ZIP file: your profile and settings, posts, timelines with their items in order, comments, likes, bookmarks,
        collections, the people you follow and who follow you, and the original files you uploaded. The download link works for 7 days.
      </p>
      {isError ? (
        <p className="alert" role="alert">
          Your exports could not be loaded. Please reload the page.
        </p>
      ) : null}
      {start.isError ? (
        <p className="alert" role="alert">
          {errorMessage(start.error, 'Your export could not be started. Please try again.')}
        </p>
      ) : null}
      {current && running ? <Progress current={current} /> : null}
      {current?.status === 'completed' && current.downloadUrl ? (
        <div className="data-export__ready">
          <p className="data-export__text" role="status">
            Your data is ready{current.sizeBytes !== undefined ? ` (${formatSize(current.sizeBytes)})` : ''}. The link expires on {formatMoment(current.expiresAt)}.
          </p>
          <a className="button button--primary data-export__download" href={current.downloadUrl} download={current.fileName}>
            Download ZIP
          </a>
        </div>
      ) : null}
      {current?.status === 'expired' ? (
        <p className="data-export__text">Your last export expired on {formatMoment(current.expiresAt)} and was deleted.</p>
      ) : null}
      {current?.status === 'error' ? (
        <p className="alert" role="alert">
          Your last export failed: {current.error ?? 'unknown error'}. You can start a new one.
        </p>
      ) : null}
      <div className="data-export__actions">
        <button type="button" className="button button--secondary" disabled={!canStart} onClick={() => start.mutate()}>
          {start.isPending ? 'Starting...' : running ? 'Export in progress' : 'Start export'}
        </button>
        {nextAt && !running ? <p className="data-export__note">You can start one export a day. Next export possible on {formatMoment(nextAt)}.</p> : null}
      </div>
    </section>
  );
}
