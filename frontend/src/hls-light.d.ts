// hls.js ships its light build (no subtitles, alternate audio, DRM or CMCD, none of which we use)
// without its own declarations; its API is the full build's.
declare module 'hls.js/light' {
  export * from 'hls.js';
  export { default } from 'hls.js';
}
