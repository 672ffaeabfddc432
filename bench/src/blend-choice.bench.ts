/**
 * Chooses the fast engine's share in the model engines' stems (FAST_BLEND, bundled-model.ts) on the development
 * set only. Each track is separated twice with hybrid's windows: by the network alone, and with every share at 1
 * (each window's vocals, drums and bass from the fast engine, 'other' the rest). The overlap-add is linear, so any
 * shares' stems are those two mixed, and their SDR follows exactly from a few sums per track: for a stem k,
 * error = (s − m) − w·(f − m); for 'other' (the mix less the three blended stems) error = r + Σ w_k·(f_k − m_k)
 * with r = s − (mix − Σ m_k), taken as s − (f_other + Σ d_k) since the all-fast run's 'other' is mix − Σ f_k: exact
 * whatever the network's own 'other' is. The whole grid (0…1 in steps of 0.1 for vocals, drums and bass) is then scored
 * without separating again; the shares with the best mean SDR over the four stems are printed.
 *
 *   npx tsc -b bench && node bench/dist/blend-choice.bench.js [--dir .data/eval-set]
 *
 * Never run it on a held-out set: shares chosen there would make its figures meaningless.
 */
import { OnnxSeparator, bundledEngineSpec, sdrOfSums, type StemSet, type StereoAudio } from '@stemdeck/audio';
import { loadEvalSet, loadTrackAudio } from './eval-set/load';
import { DEFAULT_EVAL_SET_DIR } from './eval-set/meta';

const BLENDED = ['vocals', 'drums', 'bass'] as const;
const GRID = Array.from({ length: 11 }, (_, i) => i / 10);

/** The sums behind one track's SDR for any shares. */
interface TrackSums {
  /** Per blended stem: Σs², Σ(s−m)², Σ(s−m)(f−m), Σ(f−m)². */
  stems: { signal: number; a: number; b: number; c: number }[];
  /** 'other': Σs², Σr², Σr·d_k, Σd_j·d_k (d_k = f_k − m_k). */
  other: { signal: number; rr: number; rd: number[]; dd: number[][] };
}

function sums(reference: StemSet, model: StemSet, fast: StemSet): TrackSums {
  const stems = BLENDED.map(() => ({ signal: 0, a: 0, b: 0, c: 0 }));
  const other = { signal: 0, rr: 0, rd: [0, 0, 0], dd: BLENDED.map(() => [0, 0, 0]) };
  const d = [0, 0, 0];
  for (const channel of ['left', 'right'] as const) {
    const length = reference.other[channel].length;
    for (const stems of [reference, model, fast]) {
      for (const stem of [...BLENDED, 'other'] as const) {
        if (stems[stem][channel].length !== length) throw new Error(`a ${stem} stem has ${stems[stem][channel].length} samples, the reference ${length}`);
      }
    }
    for (let i = 0; i < length; i++) {
      BLENDED.forEach((stem, k) => {
        const s = reference[stem][channel][i];
        const m = model[stem][channel][i];
        d[k] = fast[stem][channel][i] - m;
        stems[k].signal += s * s;
        stems[k].a += (s - m) ** 2;
        stems[k].b += (s - m) * d[k];
        stems[k].c += d[k] * d[k];
      });
      const s = reference.other[channel][i];
      const r = s - (fast.other[channel][i] + d[0] + d[1] + d[2]);
      other.signal += s * s;
      other.rr += r * r;
      for (let k = 0; k < 3; k++) {
        other.rd[k] += r * d[k];
        for (let j = 0; j < 3; j++) other.dd[k][j] += d[k] * d[j];
      }
    }
  }
  return { stems, other };
}

/** Mean SDR per stem over the tracks at these shares (vocals, drums, bass). */
function scoreShares(tracks: TrackSums[], w: number[]): number[] {
  const total = [0, 0, 0, 0];
  for (const t of tracks) {
    t.stems.forEach((s, k) => (total[k] += sdrOfSums(s.signal, s.a - 2 * w[k] * s.b + w[k] * w[k] * s.c)));
    // 'other' = mix − Σ blended: its error is r + Σ w_k d_k.
    let error = t.other.rr;
    for (let k = 0; k < 3; k++) {
      error += 2 * w[k] * t.other.rd[k];
      for (let j = 0; j < 3; j++) error += w[k] * w[j] * t.other.dd[k][j];
    }
    total[3] += sdrOfSums(t.other.signal, error);
  }
  return total.map((sum) => sum / tracks.length);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const dir = argv[0] === '--dir' ? argv[1] : DEFAULT_EVAL_SET_DIR;
  const tracks = loadEvalSet(dir);
  const spec = bundledEngineSpec('hybrid');
  const network = new OnnxSeparator('hybrid', { ...spec, fastBlend: undefined });
  const allFast = new OnnxSeparator('hybrid', { ...spec, fastBlend: { vocals: 1, drums: 1, bass: 1, other: 1 } });
  const perTrack: TrackSums[] = [];
  for (const track of tracks) {
    const { mixture, stems } = loadTrackAudio(track);
    const model = await network.separate(mixture as StereoAudio);
    const fast = await allFast.separate(mixture as StereoAudio);
    perTrack.push(sums(stems, model, fast));
    process.stdout.write('.');
  }
  console.log(`\n${tracks.length} tracks from ${dir}`);
  let best = { w: [0, 0, 0], scores: scoreShares(perTrack, [0, 0, 0]) };
  const mean = (scores: number[]) => scores.reduce((a, b) => a + b, 0) / scores.length;
  for (const wv of GRID) for (const wd of GRID) for (const wb of GRID) {
    const scores = scoreShares(perTrack, [wv, wd, wb]);
    if (mean(scores) > mean(best.scores)) best = { w: [wv, wd, wb], scores };
  }
  const row = (label: string, scores: number[]) =>
    console.log(`${label.padEnd(34)} vocals ${scores[0].toFixed(2)}  drums ${scores[1].toFixed(2)}  bass ${scores[2].toFixed(2)}  other ${scores[3].toFixed(2)}  mean ${mean(scores).toFixed(2)}`);
  row('network alone (shares 0)', scoreShares(perTrack, [0, 0, 0]));
  row('fast in every window (shares 1)', scoreShares(perTrack, [1, 1, 1]));
  row('current FAST_BLEND (0.4, 0.2, 0.3)', scoreShares(perTrack, [0.4, 0.2, 0.3]));
  row(`best (${best.w.join(', ')})`, best.scores);
  console.log(JSON.stringify({ benchmark: 'blend-choice', dir, tracks: tracks.length, best: { vocals: best.w[0], drums: best.w[1], bass: best.w[2] }, meanSdr: Number(mean(best.scores).toFixed(3)) }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
