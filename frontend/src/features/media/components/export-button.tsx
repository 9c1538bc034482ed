import { useState } from 'react';
import { DownloadIcon } from '../../../components/ui/icons';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUserRealtime } from '../../../lib/realtime';
import { useUser } from '../../../lib/current-user';
import { exportFileName, exportTimeline } from '../api/export-timeline';
import './export-button.css';

function downloadFile(url: string, name: string) {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/** A ring filled to `percent` (0–100); without a figure yet, a spinning quarter. */
function ProgressRing({ percent }: { percent: number | null }) {
  const circumference = 2 * Math.PI * 9;
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false" className={`export-ring${percent === null ? ' export-ring--waiting' : ''}`}>
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
      <circle
        cx="12"
        cy="12"
        r="9"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
        strokeDasharray={circumference}
        strokeDashoffset={circumference * (1 - (percent ?? 25) / 100)}
        transform="rotate(-90 12 12)"
      />
    </svg>
  );
}

/**
 * The player's download button (spec 001, section 5): exports the timeline as one MP4 and
 * downloads it. While the file is made it shows how far it is (the worker's `export_progress`
 * messages over /ws) on the button and in a status line, then says the download started, or the
 * spec's 'Export failed' toast. Signed in only.
 */
export function ExportButton({ timeline }: { timeline: { id: string; title: string } }) {
  const me = useUser();
  // null: nothing going on; else the last percentage heard (null until the worker starts).
  const [exporting, setExporting] = useState<{ percent: number | null } | null>(null);

  useUserRealtime(exporting ? me.data?.id : null, (message) => {
    if (message.type !== 'export_progress' || message.timeline !== timeline.id || message.status !== 'processing') return;
    const percent = typeof message.progress === 'number' ? message.progress : null;
    if (percent === null) return;
    setExporting((current) => (current ? { percent: Math.max(current.percent ?? 0, percent) } : current));
  });

  const onExport = async () => {
    setExporting({ percent: null });
    const fileName = exportFileName(timeline.title);
    try {
      const url = await exportTimeline(timeline.id, timeline.title);
      downloadFile(url, fileName);
      toast({ title: 'Your download has started', description: `${fileName} is ready.` });
    } catch (error) {
      const message = errorMessage(error, error instanceof Error ? error.message : 'Please try again');
      toast({ title: 'Export failed', description: `Failed to export timeline: ${message}`, variant: 'destructive' });
    } finally {
      setExporting(null);
    }
  };

  const percent = exporting?.percent ?? null;
  const status = percent === null ? 'Preparing your download…' : `Preparing your download… ${percent}%`;
  return (
    <>
      <button
        type="button"
        className="player__icon-button export-button"
        onClick={() => void onExport()}
        disabled={Boolean(exporting)}
        aria-label={exporting ? (percent === null ? 'Preparing download' : `Preparing download, ${percent}%`) : 'Download timeline'}
      >
        {exporting ? <ProgressRing percent={percent} /> : <DownloadIcon width={22} height={22} />}
      </button>
      {exporting ? (
        <p className="export-status" role="status">
          {status}
        </p>
      ) : null}
    </>
  );
}
