import { barIndexExpression, flashExpression, type BeatGridSpan, type FlashShape } from './beat-flash';
import type { VideoMode, VideoMotion, VideoPalette } from './look';

/**
 * The ffmpeg filter graph of a music video. Cheap by construction, so a 2-core machine renders 1080p faster than
 * real time: the picture is drawn at half the output's height or less (a 3-colour gradient background drawn at a
 * quarter of that and scaled up, the audio-reactive layer over it, the hue shift and the beat flash), then scaled
 * to the output size once (bilinear) for the encoder. x264 takes most of the time; see encoderSettings.
 */

interface PaletteColours {
  /** Background gradient colours. */
  background: [string, string, string];
  /** Layer colours (waveform, bars, scope), first and second channel. */
  layer: [string, string];
}

const PALETTES: Record<VideoPalette, PaletteColours> = {
  neon: { background: ['0x0a0018', '0x3a0068', '0x00284a'], layer: ['0x00fff0', '0xff2bd6'] },
  ocean: { background: ['0x00081e', '0x003a6a', '0x005a60'], layer: ['0x7fdcff', '0x3af0c8'] },
  sunset: { background: ['0x200400', '0x7a1f00', '0x3a0030'], layer: ['0xffb000', '0xff4a10'] },
  forest: { background: ['0x020f06', '0x0b3d1c', '0x1f3a08'], layer: ['0x9cff6a', '0xe4ff9a'] },
  mono: { background: ['0x000000', '0x262626', '0x101010'], layer: ['0xffffff', '0xb0b0b0'] },
  pastel: { background: ['0x2a1838', '0x5a3060', '0x20405a'], layer: ['0xffd1f0', '0xa8e6ff'] },
};

interface MotionSpec {
  /** gradients' rotation speed (its unit: a fraction of a turn per frame, roughly). */
  backgroundSpeed: number;
  flash: FlashShape;
  /**
   * Palette shifts on bar lines: the hue turns by this many degrees × sin(bar × 90°) (0, +, 0, −: each bar line
   * changes the colour and the palette stays recognisable), and drifts by this many degrees × sin(2π t / 32 s).
   */
  hueBarSwing: number;
  hueDrift: number;
}

const MOTIONS: Record<VideoMotion, MotionSpec> = {
  calm: { backgroundSpeed: 0.004, flash: { beat: 0.1, downbeatExtra: 0.06, decayFrames: 4 }, hueBarSwing: 0, hueDrift: 0 },
  drift: { backgroundSpeed: 0.012, flash: { beat: 0.12, downbeatExtra: 0.08, decayFrames: 3 }, hueBarSwing: 0, hueDrift: 25 },
  pulse: { backgroundSpeed: 0.025, flash: { beat: 0.16, downbeatExtra: 0.1, decayFrames: 2 }, hueBarSwing: 25, hueDrift: 0 },
  strobe: { backgroundSpeed: 0.05, flash: { beat: 0.22, downbeatExtra: 0.18, decayFrames: 1 }, hueBarSwing: 45, hueDrift: 0 },
};

/**
 * libx264 settings by output size: the speed goal is at least real time on a 2-core machine that other work shares.
 * Measured there (CPU seconds for 30 s of a real song at 1080p, CRF 21): superfast 27–33, ultrafast 15 with about
 * the same file size (the picture changes every frame, so B-frames and CABAC buy little), so 1080p and 4k use
 * ultrafast with its deblocking filter turned back on (the same CPU), and 720p (2.25 times fewer pixels) superfast.
 * The bit rate is capped at the rates video sites recommend for uploads (5 / 8 / 35 Mb/s): a busy waveform at
 * CRF 21 alone reached 15 Mb/s at 1080p, a 4-minute song half a gigabyte to download.
 */
export function encoderSettings(width: number, height: number): string[] {
  const pixels = width * height;
  const cap = (megabits: number) => ['-maxrate', `${megabits}M`, '-bufsize', `${2 * megabits}M`];
  if (pixels <= 1280 * 720) return ['-preset', 'superfast', ...cap(5)];
  if (pixels <= 1920 * 1080) return ['-preset', 'ultrafast', '-x264-params', 'deblock=0,0', ...cap(8)];
  return ['-preset', 'ultrafast', '-x264-params', 'deblock=0,0', ...cap(35)];
}

export interface GraphOptions {
  stemCount: number;
  width: number;
  height: number;
  fps: number;
  /** Exactly how long the output is. */
  durationSeconds: number;
  grid: BeatGridSpan;
  palette: VideoPalette;
  mode: VideoMode;
  motion: VideoMotion;
  /** gradients' seed (the prompt's hash), so the background is the same on every render of the prompt. */
  seed: number;
}

/** The size the picture is drawn at: half the output's height, at most 720 lines, even sizes. */
export function drawingSize(width: number, height: number): { width: number; height: number } {
  const drawHeight = Math.min(720, Math.round(height / 2 / 2) * 2);
  return { width: Math.round((width * drawHeight) / height / 2) * 2, height: drawHeight };
}

/**
 * The filter graph: inputs 0..stemCount−1 are the stems (already trimmed to the span by -ss/-t); outputs [v] (the
 * picture, exactly the span's frames) and [a] (the mix at 48 kHz stereo, exactly the span's length).
 */
export function filterGraph(options: GraphOptions, stemGainsDb: readonly number[]): string {
  const { fps, durationSeconds } = options;
  const draw = drawingSize(options.width, options.height);
  const colours = PALETTES[options.palette];
  const motion = MOTIONS[options.motion];
  const frames = Math.round(durationSeconds * fps);
  const parts: string[] = [];

  parts.push(mixFilter(options.stemCount, stemGainsDb, { sampleRate: 48000, layout: 'stereo', durationSeconds }));
  parts.push('[mix]asplit=2[a][vis]');
  parts.push(`[vis]${layerFilter(options.mode, draw, fps, colours)}[layer]`);

  // The gradient is smooth: drawn at a quarter of the drawing size and scaled up, it looks the same at 1/16 the cost.
  const [c0, c1, c2] = colours.background;
  const bgW = Math.max(16, Math.round(draw.width / 4));
  const bgH = Math.max(16, Math.round(draw.height / 4));
  parts.push(
    `gradients=s=${bgW}x${bgH}:r=${fps}:d=${durationSeconds}:n=3:c0=${c0}:c1=${c1}:c2=${c2}:` +
      `x0=0:y0=0:x1=${bgW - 1}:y1=${bgH - 1}:speed=${motion.backgroundSpeed}:seed=${options.seed},` +
      `scale=${draw.width}:${draw.height}:flags=bilinear,format=yuv420p[bg]`,
  );
  const hueTerms = [
    motion.hueBarSwing ? `${motion.hueBarSwing}*sin(${barIndexExpression(options.grid)}*PI/2)` : '',
    motion.hueDrift ? `${motion.hueDrift}*sin(2*PI*n/${fps * 32})` : '',
  ].filter(Boolean);
  const hue = hueTerms.length ? `,hue=h='${hueTerms.join('+')}'` : '';
  parts.push(
    `[bg][layer]overlay=x=(W-w)/2:y=(H-h)/2:format=yuv420:eof_action=repeat${hue},` +
      `eq=brightness='${flashExpression(options.grid, motion.flash)}':eval=frame,` +
      `scale=${options.width}:${options.height}:flags=bilinear,setsar=1,format=yuv420p,trim=end_frame=${frames}[v]`,
  );
  return parts.join(';');
}

/**
 * The stems summed at their gains into [mix]: each stem → float at the rate and layout → its gain → amix with
 * normalize=0 (a plain sum, as the studio's mixer plays it). With a length, padded with silence and cut to it
 * exactly; with no stems, that much silence.
 */
export function mixFilter(
  stemCount: number,
  stemGainsDb: readonly number[],
  output: { sampleRate: number; layout: 'stereo' | 'mono'; durationSeconds?: number },
): string {
  const { sampleRate, layout, durationSeconds } = output;
  const cut = durationSeconds !== undefined ? `,apad=whole_dur=${durationSeconds},atrim=end=${durationSeconds}` : '';
  if (stemCount === 0) return `anullsrc=r=${sampleRate}:cl=${layout}${durationSeconds !== undefined ? `,atrim=end=${durationSeconds}` : ''}[mix]`;
  const parts: string[] = [];
  for (let i = 0; i < stemCount; i++) {
    const gain = stemGainsDb[i] ?? 0;
    if (!Number.isFinite(gain)) throw new TypeError('A stem gain must be a finite number of dB');
    parts.push(`[${i}:a:0]aresample=${sampleRate},aformat=sample_fmts=fltp:channel_layouts=stereo,volume=${gain}dB[s${i}]`);
  }
  const inputs = Array.from({ length: stemCount }, (_, i) => `[s${i}]`).join('');
  parts.push(
    `${inputs}amix=inputs=${stemCount}:normalize=0:duration=longest:dropout_transition=0,` +
      `aformat=channel_layouts=${layout}${cut}[mix]`,
  );
  return parts.join(';');
}

/** The audio-reactive layer, drawn with transparency over the background. */
function layerFilter(mode: VideoMode, draw: { width: number; height: number }, fps: number, colours: PaletteColours): string {
  const size = `${draw.width}x${draw.height}`;
  const [first, second] = colours.layer;
  switch (mode) {
    case 'waves':
      // Read at 6 kHz: a few hundred samples per frame draw a line the eye can follow (48 kHz draws a comb that
      // doubled the encoder's bits and cost a third more CPU).
      return `aresample=6000,showwaves=s=${size}:r=${fps}:mode=cline:scale=sqrt:draw=full:colors=${first}|${second},format=rgba`;
    case 'bars':
      return (
        `showfreqs=s=${size}:rate=${fps}:mode=bar:fscale=log:ascale=cbrt:win_size=2048:averaging=2:` +
        `cmode=combined:colors=${first}|${second},format=rgba`
      );
    case 'spectrum': {
      // showcqt: a piano-scale spectrum over its scrolling sonogram (showspectrum's vertical scroll costs a CPU
      // second per second of audio; this a twentieth of it), its black made transparent over the background.
      const scheme = [first, second].flatMap((colour) => rgbOf(colour).map((channel) => (channel / 255).toFixed(2))).join('|');
      return `showcqt=s=${size}:r=${fps}:count=2:axis=0:cscheme=${scheme},format=rgba,colorkey=black:0.08:0.2`;
    }
    case 'scope': {
      const side = draw.height;
      // The trace in the palette's first colour (avectorscope's per-channel contrast), fading over a few frames.
      const [red, green, blue] = rgbOf(first);
      const contrast = `rc=${red}:gc=${green}:bc=${blue}:rf=25:gf=25:bf=25`;
      return `avectorscope=s=${side}x${side}:r=${fps}:draw=line:scale=sqrt:zoom=1.5:mode=lissajous:${contrast},format=rgba`;
    }
  }
}

/** '0xRRGGBB' → [r, g, b] (0–255). */
function rgbOf(colour: string): [number, number, number] {
  const rgb = Number.parseInt(colour.slice(2), 16);
  return [(rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255];
}
