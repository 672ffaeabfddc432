/**
 * Robustness check for the fast engine, built from development material only: the development set's own
 * ground-truth stems re-mixed in ways the set never mixes them — other levels, a different singer
 * (the vocal stem resampled up or down, so pitch and formants both move), a wetter and off-centre vocal,
 * a doubled wide vocal, a driven bass, a narrow accompaniment that sits near the centre with the voice. A change to the engine is kept when it
 * holds across these variants and both halves of the set, not when it wins on one of them; the held-out set
 * is never consulted while choosing (see bench/src/eval-set/README.md).
 *
 *   npx tsc -b bench && node bench/dist/separation-variants.bench.js [--dir .data/eval-set] [--variants original,levels,...] [--tracks N]
 *
 * Prints per-stem global SDR for each variant (and for the even and odd halves of the set), then the mean
 * over the variants, then a JSON line.
 */
import { createFastSeparator, globalSdr, STEM_TYPES, type StemSet, type StemType, type StereoAudio } from '@stemdeck/audio';
import { loadEvalSet, loadTrackAudio } from './eval-set/load';
import { DEFAULT_EVAL_SET_DIR } from './eval-set/meta';
import { placeVocal } from './eval-set/voice/reverb';

type StemScores = Record<StemType, number> & { mean: number };
type Stems = Record<StemType, StereoAudio>;

const LONG_TRACK_SECONDS = 120;

/** A variant re-mixes the ground-truth stems; the mixture is always their exact sum. */
const VARIANTS: Record<string, (stems: Stems) => Stems> = {
  original: (stems) => stems,
  /** A quieter voice over louder accompaniment and drums. */
  levels: (stems) => ({
    vocals: gain(stems.vocals, -5),
    drums: gain(stems.drums, 2),
    bass: gain(stems.bass, -2),
    other: gain(stems.other, 3),
  }),
  /** Another singer: the vocal stem read 4 semitones faster (higher voice, higher formants). */
  'singer-up': (stems) => ({ ...stems, vocals: resample(stems.vocals, 2 ** (4 / 12)) }),
  /** Another singer: 5 semitones lower. */
  'singer-down': (stems) => ({ ...stems, vocals: resample(stems.vocals, 2 ** (-5 / 12)) }),
  /** A wetter vocal in a larger room, a little to the left. */
  'vocal-room': (stems) => {
    const { sampleRate, left, right } = stems.vocals;
    const dry = Float32Array.from(left, (l, i) => (l + right[i]) / 2);
    const wet = placeVocal(dry, sampleRate, { wet: 0.9, roomSize: 0.8, damping: 0.3, preDelaySeconds: 0.03 });
    return { ...stems, vocals: { sampleRate, left: scaled(wet.left, 1.15), right: scaled(wet.right, 0.85) } };
  },
  /**
   * A doubled, wide vocal: each side adds a copy delayed by its own 9 or 17 ms, so the voice is no longer
   * the same in both channels (the centre index at its partials falls well below 1), as with double
   * tracking, a stereo chorus or a stereo choir sample.
   */
  'vocal-wide': (stems) => {
    const { sampleRate, left, right } = stems.vocals;
    const mid = Float32Array.from(left, (l, i) => (l + right[i]) / 2);
    const doubled = (delaySeconds: number) => {
      const delay = Math.round(delaySeconds * sampleRate);
      return mid.map((x, i) => 0.7 * x + 0.5 * (i >= delay ? mid[i - delay] : 0));
    };
    return { ...stems, vocals: { sampleRate, left: doubled(0.009), right: doubled(0.017) } };
  },
  /** A driven bass (tanh saturation): more upper partials, far above the bass band. */
  'bass-drive': (stems) => {
    const { sampleRate, left, right } = stems.bass;
    let peak = 1e-9;
    for (let i = 0; i < left.length; i++) peak = Math.max(peak, Math.abs(left[i]), Math.abs(right[i]));
    const drive = 4 / peak;
    const driven = (channel: Float32Array) => channel.map((x) => (1.5 * Math.tanh(drive * x)) / drive);
    return { ...stems, bass: { sampleRate, left: driven(left), right: driven(right) } };
  },
  /** Accompaniment and drums narrowed toward the centre, where the voice is. */
  narrow: (stems) => ({ ...stems, other: narrowed(stems.other, 0.3), drums: narrowed(stems.drums, 0.5) }),
};

function gain(audio: StereoAudio, db: number): StereoAudio {
  const g = 10 ** (db / 20);
  return { sampleRate: audio.sampleRate, left: scaled(audio.left, g), right: scaled(audio.right, g) };
}

function scaled(channel: Float32Array, g: number): Float32Array {
  return channel.map((x) => x * g);
}

/** Linear-interpolated resampling by `ratio` (>1 plays faster), zero-padded or cut to the same length. */
function resample(audio: StereoAudio, ratio: number): StereoAudio {
  const channel = (x: Float32Array) => {
    const out = new Float32Array(x.length);
    for (let i = 0; i < out.length; i++) {
      const at = i * ratio;
      const k = Math.floor(at);
      if (k + 1 >= x.length) break;
      const f = at - k;
      out[i] = x[k] * (1 - f) + x[k + 1] * f;
    }
    return out;
  };
  return { sampleRate: audio.sampleRate, left: channel(audio.left), right: channel(audio.right) };
}

/** Mid/side with the side scaled by `width`. */
function narrowed(audio: StereoAudio, width: number): StereoAudio {
  const left = new Float32Array(audio.left.length);
  const right = new Float32Array(audio.left.length);
  for (let i = 0; i < left.length; i++) {
    const mid = (audio.left[i] + audio.right[i]) / 2;
    const side = ((audio.left[i] - audio.right[i]) / 2) * width;
    left[i] = mid + side;
    right[i] = mid - side;
  }
  return { sampleRate: audio.sampleRate, left, right };
}

function mixOf(stems: Stems): StereoAudio {
  const { sampleRate } = stems.vocals;
  const length = stems.vocals.left.length;
  const mixture = { sampleRate, left: new Float32Array(length), right: new Float32Array(length) };
  for (const stem of STEM_TYPES) {
    for (let i = 0; i < length; i++) {
      mixture.left[i] += stems[stem].left[i];
      mixture.right[i] += stems[stem].right[i];
    }
  }
  return mixture;
}

function score(reference: Stems, estimate: StemSet): StemScores {
  const scores = {} as StemScores;
  for (const stem of STEM_TYPES) scores[stem] = globalSdr(reference[stem], estimate[stem]);
  scores.mean = STEM_TYPES.reduce((sum, stem) => sum + scores[stem], 0) / STEM_TYPES.length;
  return scores;
}

function meanOf(all: StemScores[]): StemScores {
  const mean = {} as StemScores;
  for (const key of [...STEM_TYPES, 'mean'] as const) mean[key] = all.reduce((sum, s) => sum + s[key], 0) / all.length;
  return mean;
}

function printRow(label: string, scores: StemScores): void {
  const cells = [...STEM_TYPES, 'mean' as const].map((key) => scores[key].toFixed(2).padStart(7)).join(' ');
  console.log(`${label.padEnd(24)} ${cells}`);
}

function parseArgs(argv: string[]) {
  const args = { dir: DEFAULT_EVAL_SET_DIR, variants: Object.keys(VARIANTS), tracks: Infinity };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dir') args.dir = argv[++i];
    else if (argv[i] === '--variants') args.variants = argv[++i].split(',');
    else if (argv[i] === '--tracks') args.tracks = Number(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]} (expected --dir PATH, --variants A,B, --tracks N)`);
  }
  for (const name of args.variants) if (!VARIANTS[name]) throw new Error(`unknown variant ${name} (${Object.keys(VARIANTS).join(', ')})`);
  return args;
}

async function main(): Promise<void> {
  const { dir, variants, tracks: limit } = parseArgs(process.argv.slice(2));
  const tracks = loadEvalSet(dir)
    .filter((t) => t.durationSeconds < LONG_TRACK_SECONDS)
    .slice(0, limit);
  const separator = createFastSeparator();
  const rows: Record<string, StemScores[]> = Object.fromEntries(variants.map((v) => [v, []]));
  for (const track of tracks) {
    const { stems } = loadTrackAudio(track);
    for (const variant of variants) {
      const remixed = VARIANTS[variant](stems);
      rows[variant].push(score(remixed, await separator.separate(mixOf(remixed))));
    }
  }
  console.log(`fast engine on ${tracks.length} development tracks, re-mixed`);
  console.log(`${'variant'.padEnd(24)} ${[...STEM_TYPES, 'mean'].map((s) => s.padStart(7)).join(' ')}`);
  const summary: Record<string, StemScores> = {};
  for (const variant of variants) {
    summary[variant] = meanOf(rows[variant]);
    printRow(variant, summary[variant]);
    printRow('  even tracks', meanOf(rows[variant].filter((_, i) => i % 2 === 0)));
    printRow('  odd tracks', meanOf(rows[variant].filter((_, i) => i % 2 === 1)));
  }
  summary.all = meanOf(variants.map((v) => summary[v]));
  printRow('mean over variants', summary.all);
  console.log(JSON.stringify(summary));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
