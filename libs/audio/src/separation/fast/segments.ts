/**
 * The track is processed in segments of whole STFT frames so that work is bounded in memory and can be
 * shared between threads. Segment k owns the output samples [ownFrom·hop, ownTo·hop) and writes nothing
 * else, so segments never race on a shared output. To finish its samples it synthesises frames
 * [ownFrom, ownTo + size/hop − 1) (every frame that overlaps them), and it analyses a margin of frames on
 * both sides so the median filters see context and no seam is audible at segment boundaries.
 *
 * The plan depends only on the track length and the parameters, so the result is the same however many
 * threads run the segments.
 */
export interface Segment {
  /** Owned frames: this segment writes samples [ownFrom·hop, ownTo·hop) (clipped to the track). */
  ownFrom: number;
  ownTo: number;
  /** Frames resynthesised: [ownFrom, synthesisTo). */
  synthesisTo: number;
  /** Frames analysed: [analysisFrom, analysisTo) ⊇ the synthesised frames plus margins. */
  analysisFrom: number;
  analysisTo: number;
}

export interface SegmentLayout {
  /** Frames in the whole track (see StereoStft.frameCount). */
  totalFrames: number;
  /** size / hop: frames over each sample. */
  overlap: number;
  /** Owned frames per segment (the last one may have fewer). */
  segmentFrames: number;
  /** Context frames analysed on each side. */
  marginFrames: number;
}

export function planSegments(layout: SegmentLayout): Segment[] {
  const { totalFrames, overlap, segmentFrames, marginFrames } = layout;
  // Frames at or past this one only add to samples after the track's end, which nobody owns.
  const ownedFrames = totalFrames - (overlap - 1);
  const segments: Segment[] = [];
  for (let ownFrom = 0; ownFrom < ownedFrames; ownFrom += segmentFrames) {
    const ownTo = Math.min(ownedFrames, ownFrom + segmentFrames);
    const synthesisTo = ownTo + overlap - 1;
    segments.push({
      ownFrom,
      ownTo,
      synthesisTo,
      analysisFrom: Math.max(0, ownFrom - marginFrames),
      analysisTo: Math.min(totalFrames, synthesisTo + marginFrames),
    });
  }
  return segments;
}

/** Analysed frames of the largest segment: the size every per-thread buffer is allocated for. */
export function maxAnalysisFrames(segments: readonly Segment[]): number {
  return segments.reduce((max, s) => Math.max(max, s.analysisTo - s.analysisFrom), 0);
}
