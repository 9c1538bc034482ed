import type Hls from 'hls.js/light';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { getAuthToken } from '../auth-token';
import type { ApiSchemas } from '../api-client';
import { autoQuality, levelForQuality, type PlaybackConditions, type Quality, type QualitySetting, startQuality } from './playback-policy';

/** What a video element needs of a video to play it. */
export type PlayableVideo = Pick<ApiSchemas['VideoDto'], 'id' | 'hlsUrl' | 'streamUrl'>;

const HLS_TYPE = 'application/vnd.apple.mpegurl';
const BANDWIDTH_KEY = 'playback-bandwidth-mbps';

/** The throughput this device measured while playing last time (Mbit/s), for the next first frame. */
function rememberedBandwidth(): number | undefined {
  try {
    const value = Number(window.localStorage.getItem(BANDWIDTH_KEY));
    return value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

function rememberBandwidth(bitsPerSecond: number): void {
  if (!(bitsPerSecond > 0)) return;
  try {
    window.localStorage.setItem(BANDWIDTH_KEY, (bitsPerSecond / 1e6).toFixed(2));
  } catch {
    // Storage full or blocked: the next video starts from the default guess.
  }
}

function absolute(url: string): string {
  return url.startsWith('/') ? `${window.location.origin}${url}` : url;
}

function hasMediaSource(): boolean {
  return typeof window !== 'undefined' && ('MediaSource' in window || 'ManagedMediaSource' in window);
}

/**
 * hls.js's module build carries no transmuxing worker of its own (its script build makes one from
 * a blob, which the CSP's `worker-src 'self'` would refuse), so it is given the worker as a file
 * of the build: segments are then remuxed off the main thread, which stays free for the page.
 * Without it (the file failed to load) hls.js remuxes on the main thread, as before.
 */
function hlsWorkerPath(): Promise<string | null> {
  return import('hls.js/dist/hls.worker.js?url').then(
    (module: { default: string }) => module.default,
    () => null,
  );
}

const CANCELLED = Symbol('detached before the player loaded');

/**
 * Resolves once the browser has painted the frame being prepared: hls.js (about 95 KB to
 * evaluate, then playlists and segments) starts after the screen it plays on is on show, not
 * between its render and its paint.
 */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function' || document.visibilityState !== 'visible') resolve();
    else requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}

interface Source {
  hlsUrl: string | null;
  streamUrl: string;
}

/**
 * Puts a video into `media`: its HLS ladder when there is one, else the original stream.
 * hls.js (its own chunk, loaded on first use) is preferred wherever Media Source Extensions exist:
 * it sends the session's bearer token with every playlist and segment request, and it lets the
 * quality be chosen. The browser's own HLS plays where hls.js cannot run (older iPhones).
 * A fatal HLS error falls back to the original stream. Returns the function that detaches.
 * `onLevels` runs as hls.js parses the master playlist, before it picks a rendition to load.
 */
export function attachVideoSource(
  media: HTMLVideoElement,
  { hlsUrl, streamUrl }: Source,
  found: { onHls: (instance: Hls | null) => void; onLevels: (heights: number[]) => void; onPlaying?: (height: number | null) => void },
): () => void {
  let cancelled = false;
  let instance: Hls | null = null;
  const playOriginal = () => {
    if (!cancelled) media.src = absolute(streamUrl);
  };

  if (hlsUrl && hasMediaSource()) {
    afterNextPaint()
      .then(() => (cancelled ? Promise.reject(CANCELLED) : Promise.all([import('hls.js/light'), hlsWorkerPath()])))
      .then(([{ default: HlsClass }, workerPath]) => {
        if (cancelled) return;
        if (!HlsClass.isSupported()) {
          playOriginal();
          return;
        }
        const token = getAuthToken();
        const hls = new HlsClass({
          workerPath,
          xhrSetup: (xhr) => {
            if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
          },
        });
        instance = hls;
        found.onHls(hls);
        hls.on(HlsClass.Events.FRAG_LOADED, () => rememberBandwidth(hls.bandwidthEstimate));
        hls.on(HlsClass.Events.LEVEL_SWITCHED, (_event, data) => {
          if (!cancelled) found.onPlaying?.(hls.levels[data.level]?.height ?? null);
        });
        hls.on(HlsClass.Events.MANIFEST_PARSED, (_event, data) => {
          if (!cancelled) found.onLevels(data.levels.map((level) => level.height));
        });
        hls.on(HlsClass.Events.ERROR, (_event, data) => {
          if (!data.fatal || cancelled) return;
          console.warn('HLS playback failed; playing the original', data.details);
          hls.destroy();
          instance = null;
          found.onHls(null);
          playOriginal();
        });
        hls.loadSource(absolute(hlsUrl));
        hls.attachMedia(media);
      })
      .catch((error: unknown) => {
        if (error === CANCELLED) return;
        console.warn('Could not load the HLS player; playing the original', error);
        playOriginal();
      });
  } else if (hlsUrl && media.canPlayType(HLS_TYPE)) {
    media.src = absolute(hlsUrl);
  } else {
    playOriginal();
  }

  return () => {
    cancelled = true;
    instance?.destroy();
    found.onHls(null);
    media.removeAttribute('src');
    media.load();
  };
}

type QualityControls = Pick<Hls, 'autoLevelCapping' | 'autoLevelEnabled' | 'manualLevel' | 'currentLevel' | 'startLevel' | 'loadLevel'>;

/**
 * Auto: adaptive up to the cap the conditions allow; a fixed quality: that rendition only.
 * `starting`: hls.js has just parsed the master playlist and not yet picked the rendition to load
 * first, which it then picks within these bounds. Later, a switch is immediate only when leaving or
 * changing a fixed quality: an immediate switch drops the fragment in flight and the buffer, a waste
 * on the slow connections the cap is for.
 */
export function applyQuality(hls: QualityControls, heights: readonly number[], setting: QualitySetting, wanted: Quality, starting = false, estimatedMbps?: number): void {
  const level = levelForQuality(heights, wanted);
  if (setting === 'auto') {
    hls.autoLevelCapping = level;
    if (starting) hls.startLevel = levelForQuality(heights, startQuality(wanted, estimatedMbps));
    else if (!hls.autoLevelEnabled) hls.currentLevel = -1;
  } else {
    hls.autoLevelCapping = -1;
    if (starting) {
      hls.startLevel = level;
      hls.loadLevel = level;
    } else if (hls.manualLevel !== level) {
      hls.currentLevel = level;
    }
  }
}

export function useVideoSource(
  element: RefObject<HTMLVideoElement | null>,
  video: PlayableVideo | undefined,
  quality: QualitySetting,
  conditions: PlaybackConditions,
) {
  const hls = useRef<Hls | null>(null);
  const [levels, setLevels] = useState<{ videoId: string; heights: number[] } | null>(null);
  const [playing, setPlaying] = useState<{ videoId: string; height: number | null } | null>(null);
  const videoId = video?.id;
  const hlsUrl = video?.hlsUrl ?? null;
  const streamUrl = video?.streamUrl;
  const wanted = quality === 'auto' ? autoQuality(conditions) : quality;
  const estimate = conditions.network.downlink ?? rememberedBandwidth();
  const choice = useRef({ quality, wanted, estimate });

  useEffect(() => {
    choice.current = { quality, wanted, estimate };
  }, [quality, wanted, estimate]);

  useEffect(() => {
    const media = element.current;
    if (!media || !videoId || !streamUrl) return;
    return attachVideoSource(
      media,
      { hlsUrl, streamUrl },
      {
        onHls: (instance) => {
          hls.current = instance;
        },
        onPlaying: (height) => setPlaying({ videoId, height }),
        onLevels: (heights) => {
          // Here, not only in the effect below: by the time React renders, hls.js has already
          // requested its first fragment, at a rendition chosen from its own bandwidth guess alone.
          if (hls.current && heights.length > 0) applyQuality(hls.current, heights, choice.current.quality, choice.current.wanted, true, choice.current.estimate);
          setLevels({ videoId, heights });
        },
      },
    );
  }, [element, videoId, hlsUrl, streamUrl]);

  const current = levels && levels.videoId === videoId ? levels : null;

  useEffect(() => {
    if (hls.current && current && current.heights.length > 0) applyQuality(hls.current, current.heights, quality, wanted);
  }, [current, quality, wanted]);

  return {
    /** Heights of the renditions hls.js found; empty when the quality cannot be chosen. */
    heights: current?.heights ?? [],
    /** The quality playing, or the cap in auto mode. */
    wanted,
    /** Height of the rendition on screen now, once hls.js has switched to one. */
    playingHeight: playing && playing.videoId === videoId ? playing.height : null,
  };
}
