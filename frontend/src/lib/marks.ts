/**
 * Performance marks along upload → first audible stem. The browser benchmark
 * (bench/src/first-audible.bench.ts) reads them; in a profiler they show the same story.
 */
export const MARKS = {
  /** The upload's last byte left the browser. */
  uploadSent: 'stemdeck:upload-sent',
  /** Stems (or their first seconds) are fetched and decoded: Play would sound. */
  stemsPlayable: 'stemdeck:stems-playable',
  /** The first tick at which a stem's analyser is above −60 dBFS after Play. */
  firstAudible: 'stemdeck:first-audible',
} as const;
