/**
 * Where the analysed beats fall in a rendered video's frames, and the ffmpeg expressions that flash on them.
 *
 * The grid is the studio's: beat b at b × 60 / bpm seconds of the song. A video that starts `startSeconds` into
 * the song shows song time startSeconds + n / fps on frame n, so beat b's frame is the first frame n with
 * n + offset ≥ b × framesPerBeat, where offset = startSeconds × fps + ½: the frame whose start is nearest the beat
 * (within half a frame). The expressions below compute the same thing from ffmpeg's frame number `n`, so the
 * flash starts exactly on that frame and decays over the next ones; the grid is uniform, so no list of beats is
 * needed in the filter graph, whatever the song's length.
 */
export interface BeatGridSpan {
  bpm: number;
  beatsPerBar: number;
  /** The first rendered frame's song time. */
  startSeconds: number;
  fps: number;
}

/** Frames per beat and the offset of frame 0 on the grid, in frames. */
function gridInFrames(grid: BeatGridSpan): { framesPerBeat: number; offset: number } {
  return { framesPerBeat: (60 / grid.bpm) * grid.fps, offset: grid.startSeconds * grid.fps + 0.5 };
}

export interface BeatFrame {
  /** The beat's index on the song's grid (0 is the song's start). */
  beat: number;
  frame: number;
  downbeat: boolean;
}

/** The beats whose frame is in [0, frameCount). */
export function beatFrames(grid: BeatGridSpan, frameCount: number): BeatFrame[] {
  const { framesPerBeat, offset } = gridInFrames(grid);
  const beats: BeatFrame[] = [];
  for (let beat = Math.max(0, Math.ceil(offset / framesPerBeat - 1)); ; beat++) {
    const frame = Math.ceil(beat * framesPerBeat - offset) + 0; // + 0: never −0
    if (frame >= frameCount) break;
    if (frame >= 0) beats.push({ beat, frame, downbeat: beat % grid.beatsPerBar === 0 });
  }
  return beats;
}

/** Formats a number for an ffmpeg expression (no exponent notation, enough digits for frame arithmetic). */
const num = (value: number): string => value.toFixed(9).replace(/\.?0+$/, '') || '0';

/** ffmpeg expression: the index of the latest beat at frame `n` on the song's grid. */
export function beatIndexExpression(grid: BeatGridSpan): string {
  const { framesPerBeat, offset } = gridInFrames(grid);
  return `floor((n+${num(offset)})/${num(framesPerBeat)})`;
}

/** ffmpeg expression: frames since the latest beat's frame (0 on the beat's own frame). */
export function framesSinceBeatExpression(grid: BeatGridSpan): string {
  const { framesPerBeat, offset } = gridInFrames(grid);
  return `(n-ceil(${beatIndexExpression(grid)}*${num(framesPerBeat)}-${num(offset)}))`;
}

/** ffmpeg expression: the index of the bar at frame `n` (its first beat is a downbeat). */
export function barIndexExpression(grid: BeatGridSpan): string {
  return `floor(${beatIndexExpression(grid)}/${grid.beatsPerBar})`;
}

export interface FlashShape {
  /** Brightness lift on a beat's frame (eq's brightness: 1 is full scale). */
  beat: number;
  /** Added on a downbeat (the bar's first beat). */
  downbeatExtra: number;
  /** Decay time constant in frames: the lift falls by e every this many frames. */
  decayFrames: number;
}

/**
 * ffmpeg expression for eq's brightness at frame `n`: the flash lifts the beat's own frame most and decays after
 * it, so the brightest frame of each beat is the beat's frame.
 */
export function flashExpression(grid: BeatGridSpan, shape: FlashShape): string {
  const downbeat = `eq(mod(${beatIndexExpression(grid)},${grid.beatsPerBar}),0)`;
  return `(${num(shape.beat)}+${num(shape.downbeatExtra)}*${downbeat})*exp(-${framesSinceBeatExpression(grid)}/${num(shape.decayFrames)})`;
}
