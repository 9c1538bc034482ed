import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { formatDuration } from '../../../lib/format';
import type { Video } from '../api/types';
import { imageUrlOf, isImage } from '../lib/media-kind';
import { formatFileSize } from '../lib/speed';
import { videoStatusLabel } from '../lib/video-order';
import { VideoCaptionsEditor } from './video-captions-editor';
import { VideoSensitiveToggle } from './video-sensitive-toggle';
import { VideoThumbnail } from './video-thumbnail';
import './alt-text.css';

// The alt text editor loads when first opened.
const AltTextEditor = lazy(() => import('./alt-text-editor'));

const TONE: Record<string, BadgeTone> = { completed: 'success', processing: 'brand', uploading: 'brand', error: 'danger' };

export interface VideoRowProps {
  video: Video;
  /** Live processing figure from the server, while processing. */
  processing?: { progress: number; message: string };
  onRename: (title: string) => Promise<unknown>;
  onDelete: () => void;
  /** A drag handle, in manual order. */
  handle?: ReactNode;
}

function TitleEditor({ video, onSave, onDone }: { video: Video; onSave: (title: string) => Promise<unknown>; onDone: () => void }) {
  const [value, setValue] = useState(video.title);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const save = async () => {
    const title = value.trim();
    if (!title) {
      setProblem('The title cannot be empty.');
      return;
    }
    if (title === video.title) {
      onDone();
      return;
    }
    setSaving(true);
    try {
      await onSave(title);
      onDone();
    } catch {
      // The toast has told; the field stays open with the text typed.
      setSaving(false);
    }
  };

  return (
    <div className="video-row__editor">
      <input
        className="field__input video-row__title-input"
        aria-label={isImage(video) ? 'Image title' : 'Video title'}
        value={value}
        maxLength={200}
        disabled={saving}
        autoFocus
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `title-problem-${video.id}` : undefined}
        onChange={(event) => {
          setValue(event.target.value);
          setProblem(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            void save();
          } else if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            onDone();
          }
        }}
      />
      <button type="button" className="button button--primary button--sm" disabled={saving} onClick={() => void save()}>
        Save
      </button>
      <button type="button" className="button button--ghost button--sm" disabled={saving} onClick={onDone}>
        Cancel
      </button>
      {problem ? (
        <p className="field__error" id={`title-problem-${video.id}`}>
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/**
 * One video or image in Video Management: picture (an image is its own picture), title
 * (editable), figures, status and actions.
 */
export function VideoRow({ video, processing, onRename, onDelete, handle }: VideoRowProps) {
  const [editing, setEditing] = useState(false);
  const [captions, setCaptions] = useState(false);
  const [altEditing, setAltEditing] = useState(false);
  const completed = video.status === 'completed';
  const image = isImage(video);
  return (
    <div className={`video-row${image ? ' video-row--image' : ''}`}>
      {handle}
      <VideoThumbnail url={image ? imageUrlOf(video) : video.thumbnailUrl} />
      <div className="video-row__body">
        {editing ? (
          <TitleEditor video={video} onSave={onRename} onDone={() => setEditing(false)} />
        ) : (
          <p className="video-row__title">{video.title}</p>
        )}
        <p className="video-row__meta">
          <span>{video.originalName}</span>
          {video.duration > 0 ? <span>{formatDuration(video.duration)}</span> : null}
          <span>{formatFileSize(video.fileSize)}</span>
        </p>
        <div className="video-row__status">
          {image ? <Badge tone="neutral">Image</Badge> : null}
          <Badge tone={TONE[video.status] ?? 'neutral'}>{videoStatusLabel(video.status)}</Badge>
          {video.status === 'processing' && processing ? (
            <>
              <progress max={100} value={processing.progress} aria-label={`${video.title} processing progress`} />
              <span className="muted">
                {processing.message ? `${processing.message} · ` : ''}
                {processing.progress}%
              </span>
            </>
          ) : null}
          {video.status === 'error' && video.errorReason ? <span className="video-row__error">{video.errorReason}</span> : null}
          <VideoSensitiveToggle video={video} />
        </div>
        {video.altText ? (
          <p className="video-row__alt">
            <span className="muted">{image ? 'Alt text: ' : 'Description: '}</span>
            {video.altText}
          </p>
        ) : (
          <p className="video-row__alt">
            <Badge tone="warning">{image ? 'No alt text' : 'No description'}</Badge>
          </p>
        )}
        {altEditing ? (
          <Suspense fallback={null}>
            <AltTextEditor
              mediaId={video.id}
              kind={image ? 'image' : 'video'}
              name={video.title}
              initial={video.altText}
              autoFocus
              onDone={() => setAltEditing(false)}
              onCancel={() => setAltEditing(false)}
            />
          </Suspense>
        ) : null}
        {captions && !image ? <VideoCaptionsEditor videoId={video.id} title={video.title} /> : null}
      </div>
      <div className="video-row__actions">
        {editing ? null : (
          <button type="button" className="button button--ghost button--sm" onClick={() => setEditing(true)} aria-label={`Rename ${video.title}`}>
            Rename
          </button>
        )}
        <button
          type="button"
          className="button button--ghost button--sm"
          onClick={() => setAltEditing((open) => !open)}
          aria-expanded={altEditing}
          aria-label={`${image ? 'Alt text of' : 'Description of'} ${video.title}`}
        >
          {image ? 'Alt text' : 'Description'}
        </button>
        {image ? null : (
          <button type="button" className="button button--ghost button--sm" onClick={() => setCaptions((open) => !open)} aria-expanded={captions} aria-label={`Captions of ${video.title}`}>
            Captions
          </button>
        )}
        {completed ? (
          <a className="button button--ghost button--sm" href={image ? imageUrlOf(video) : video.streamUrl} target="_blank" rel="noopener noreferrer" aria-label={`Open ${video.title} in a new tab`}>
            Open
          </a>
        ) : null}
        <button type="button" className="button button--ghost button--sm video-row__delete" onClick={onDelete} aria-label={`Delete ${video.title}`}>
          Delete
        </button>
      </div>
    </div>
  );
}
