import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { DownloadIcon } from '../../../components/ui/icons';
import { PageState } from '../../../components/ui/page-state';
import { Spinner } from '../../../components/ui/spinner';
import { useExport } from '../../../features/media/api/get-export';
import { ApiError } from '../../../lib/api-client';

/** Starts a download the way a click on a link would (the file is an attachment: the page stays). */
function startDownload(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

const home = (
  <Link to="/" className="button button--secondary">
    Back to Home
  </Link>
);

/**
 * An export's page (/exports/{id}), where "Your export is ready" leads: it asks for the export's
 * signed download URL and starts the download, says so, and offers it again. An export still in
 * the making is waited for; a failed or expired one says so.
 */
export default function ExportDownloadRoute() {
  const { id = '' } = useParams();
  const exported = useExport(id);
  const started = useRef(false);
  const downloadUrl = exported.data?.status === 'completed' ? exported.data.downloadUrl : undefined;
  const fileName = exported.data?.fileName ?? 'timeline.mp4';

  useEffect(() => {
    if (!downloadUrl || started.current) return;
    started.current = true;
    startDownload(downloadUrl, fileName);
  }, [downloadUrl, fileName]);

  let page;
  if (exported.isPending) {
    page = (
      <div className="page-state">
        <Spinner label="Loading your export..." />
      </div>
    );
  } else if (exported.isError) {
    const gone = exported.error instanceof ApiError && exported.error.status === 404;
    page = (
      <PageState
        title={gone ? 'Export Not Available' : 'Export unavailable'}
        actions={
          gone ? (
            home
          ) : (
            <button type="button" className="button button--primary" onClick={() => void exported.refetch()}>
              Try again
            </button>
          )
        }
      >
        <p>{gone ? 'This export no longer exists: exports are kept for a day. Export the timeline again from its player.' : 'The export could not be loaded. Check your connection and try again.'}</p>
      </PageState>
    );
  } else if (exported.data.status === 'error') {
    page = (
      <PageState title="Export Failed" actions={home}>
        <p>{exported.data.error || 'The export could not be made.'}</p>
      </PageState>
    );
  } else if (!downloadUrl) {
    page = (
      <PageState title="Export in Progress" actions={home}>
        <p>&quot;{fileName}&quot; is still being made. Its download starts here as soon as it is ready.</p>
        <Spinner label="Making your export..." />
      </PageState>
    );
  } else {
    page = (
      <PageState
        title="Your Export"
        icon={<DownloadIcon width={32} height={32} />}
        actions={
          <>
            <a href={downloadUrl} download={fileName} className="button button--primary">
              Download again
            </a>
            {home}
          </>
        }
      >
        <p>&quot;{fileName}&quot; is downloading.</p>
      </PageState>
    );
  }
  return (
    <>
      <title>Export · Timeliner</title>
      {page}
    </>
  );
}
