/**
 * Coordinate search over the fast engine's tuning constants on training-family songs (never a held-out set):
 * each round tries every constant one step up and one step down from the current best, keeps a move when it
 * raises the mean SDR (four stems, all tracks) on the tuning sets by more than 0.005 dB. Check sets are scored
 * for the start and for the result only, to see whether what was gained holds on songs the search never saw.
 *
 *   npx tsc -b bench && node bench/dist/fast-tuning.bench.js --tune .data/wide-set-3 [--tune DIR]... \
 *     [--check .data/wide-set-1 --check .data/eval-set] [--every 2] [--rounds 2]
 *
 * `--every K` keeps every K-th track of the tuning sets (memory: ~50 MB per 30 s track); a check set is loaded
 * after the search, alone. Prints each move and the constants that changed, then a JSON line.
 */
import { createFastSeparator, FAST_TUNING_KEYS, fastParameters, globalSdr, STEM_TYPES, type FastTuning, type StemSet, type StereoAudio } from '@stemdeck/audio';
import { loadEvalSet, loadTrackAudio } from './eval-set/load';

type Tuning = Required<FastTuning>;

/** One tunable constant: how to read it, how to write a changed copy, its (additive) step and bounds. */
interface Knob {
  name: string;
  get: (t: Tuning) => number;
  set: (t: Tuning, value: number) => Tuning;
  step: number;
  min: number;
  max: number;
}

type ScalarName = { [K in keyof Tuning]: Tuning[K] extends number ? K : never }[keyof Tuning];

const scalar = (name: ScalarName, step: number, min: number, max: number): Knob => ({
  name,
  get: (t) => t[name],
  set: (t, value) => ({ ...t, [name]: value }),
  step,
  min,
  max,
});

/** The weight of the percussive estimate's anchor `index` (harmonic-share.ts), 0.2 a step. */
const percussiveAnchor = (index: number): Knob => ({
  name: `percussiveWeights[${index}]`,
  get: (t) => t.percussiveWeights[index][1],
  set: (t, value) => ({ ...t, percussiveWeights: t.percussiveWeights.map((a, i) => (i === index ? [a[0], value] : a)) as [number, number][] }),
  step: 0.2,
  min: 0.05,
  max: 64,
});

const KNOBS: Knob[] = [
  scalar('vocalCentreFrom', 0.1, 0, 0.95),
  scalar('vocalCentreReference', 0.05, 0.5, 1),
  scalar('vocalCentreMaxShift', 0.1, 0, 0.8),
  scalar('bassVocalShare', 0.1, 0, 1),
  scalar('voicingFrom', 0.1, 0, 0.9),
  scalar('voicingTo', 0.1, 0.1, 1),
  scalar('reverbGainMax', 0.05, 0.01, 0.5),
  ...[0, 1, 2, 3, 4].map(percussiveAnchor),
];

/** Settings the engine reads otherwise (voicing off when its ramp is empty, say) are not tuning moves. */
const valid = (t: Tuning) => t.voicingFrom < t.voicingTo && t.vocalCentreFrom < t.vocalCentreTo && t.reverbGainMin <= t.reverbGainMax;

/** The engine's own constants, as a tuning. */
function startingTuning(): Tuning {
  const own = fastParameters(44100);
  return Object.fromEntries(FAST_TUNING_KEYS.map((key) => [key, own[key]])) as Tuning;
}

interface Track {
  mixture: StereoAudio;
  stems: StemSet;
}

function loadTracks(dirs: string[], every: number): Track[] {
  return dirs.flatMap((dir) =>
    loadEvalSet(dir)
      .filter((_, i) => i % every === 0)
      .map((track) => {
        const { mixture, stems } = loadTrackAudio(track);
        return { mixture, stems };
      }),
  );
}

/** Mean SDR (four stems, then over tracks) with this tuning. */
async function score(tracks: Track[], tuning: Tuning): Promise<number> {
  const separator = createFastSeparator({ tuning });
  let total = 0;
  for (const track of tracks) {
    const estimate = await separator.separate(track.mixture);
    total += STEM_TYPES.reduce((sum, stem) => sum + globalSdr(track.stems[stem], estimate[stem]), 0) / STEM_TYPES.length;
  }
  return total / tracks.length;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const dirsOf = (flag: string) => argv.flatMap((arg, i) => (argv[i - 1] === flag ? [arg] : []));
  const option = (flag: string, fallback: number) => (argv.includes(flag) ? Number(argv[argv.indexOf(flag) + 1]) : fallback);
  const every = option('--every', 1);
  if (!(Number.isInteger(every) && every >= 1)) throw new Error(`--every takes a whole number from 1, got ${every}`);
  const tune = loadTracks(dirsOf('--tune'), every);
  if (tune.length === 0) throw new Error('give at least one --tune DIR (a training-family set, never a held-out one)');
  const start = startingTuning();
  let best = { tuning: start, sdr: await score(tune, start) };
  console.log(`start: tuning ${best.sdr.toFixed(3)} dB over ${tune.length} tracks`);
  for (let round = 1; round <= option('--rounds', 2); round++) {
    let moved = false;
    for (const knob of KNOBS) {
      for (const direction of [1, -1]) {
        const value = Number((knob.get(best.tuning) + direction * knob.step).toFixed(4));
        const tuning = knob.set(best.tuning, value);
        if (value < knob.min || value > knob.max || !valid(tuning)) continue;
        const sdr = await score(tune, tuning);
        const better = sdr > best.sdr + 0.005;
        console.log(`round ${round} ${knob.name} ${knob.get(best.tuning)} → ${value}: ${sdr.toFixed(3)}${better ? '  kept' : ''}`);
        if (better) {
          best = { tuning, sdr };
          moved = true;
          break;
        }
      }
    }
    if (!moved) break;
  }
  const changed = KNOBS.filter((knob) => knob.get(best.tuning) !== knob.get(start)).map((knob) => ({ name: knob.name, from: knob.get(start), to: knob.get(best.tuning) }));
  console.log('changed:', changed.map((c) => `${c.name} ${c.from} → ${c.to}`).join(', ') || 'nothing');
  const checked = [];
  // The check sets are loaded only now, one at a time: the search never saw them.
  for (const dir of dirsOf('--check')) {
    const tracks = loadTracks([dir], 1);
    const before = await score(tracks, start);
    const after = await score(tracks, best.tuning);
    console.log(`check ${dir}: ${before.toFixed(3)} → ${after.toFixed(3)} dB (${tracks.length} tracks)`);
    checked.push({ dir, before: Number(before.toFixed(3)), after: Number(after.toFixed(3)) });
  }
  console.log(JSON.stringify({ benchmark: 'fast-tuning', tuning: { tracks: tune.length, sdr: Number(best.sdr.toFixed(3)) }, changed, checked }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
