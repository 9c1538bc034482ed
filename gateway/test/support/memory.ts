import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's gc(), without starting node with --expose-gc. */
export function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const MB = 1024 * 1024;
const live = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/**
 * Samples this process's memory until stopped: peak RSS growth, and peak growth of what is still
 * referenced after a collection (heap plus buffers), which is what a streaming proxy must keep flat.
 */
export function sampleMemory(gc: () => void, everyMs: number) {
  gc();
  const rss0 = process.memoryUsage().rss;
  const live0 = live();
  let rssPeak = rss0;
  let livePeak = live0;
  const timer = setInterval(() => {
    gc();
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    livePeak = Math.max(livePeak, live());
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return { rssGrowthMb: (rssPeak - rss0) / MB, liveGrowthMb: (livePeak - live0) / MB };
    },
  };
}
