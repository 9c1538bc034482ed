import { useEffect, useRef } from 'react';
import { useVideoThumbnail } from '../../../lib/video-thumbnail';

/**
 * A video's thumbnail, fetched with the session (see getVideoThumbnail); a plain tile until it
 * arrives or when there is none. Decorative: the title beside it names the video.
 */
export function VideoThumbnail({ url, className = 'video-thumb' }: { url: string | null | undefined; className?: string }) {
  const thumbnail = useVideoThumbnail(url);
  const image = useRef<HTMLImageElement>(null);
  const blob = thumbnail.data;

  useEffect(() => {
    const element = image.current;
    if (!element || !blob || typeof URL.createObjectURL !== 'function') return;
    const objectUrl = URL.createObjectURL(blob);
    element.src = objectUrl;
    return () => {
      element.removeAttribute('src');
      URL.revokeObjectURL(objectUrl);
    };
  }, [blob]);

  if (!blob) return <span className={`${className} ${className}--empty`} aria-hidden="true" />;
  return <img ref={image} className={className} alt="" width={160} height={90} decoding="async" />;
}
