/**
 * Measures what the bundled network scores on the regression clip (libs/audio/models/regression) with the
 * network alone, hybrid and quality, through the same code the unit test checks the card's floors with, and prints
 * the floors for the model card: each SDR less a margin (1 dB unless `--margin`), rounded down to a tenth. Run it
 * after a new network is copied in and pass its last line to card.py:
 *
 *   npm run bench:floors
 *   python3 tools/separation-model/card.py <run dir> libs/audio/models/stemdeck-masknet.json '<that line>' --stageN
 *
 * The clip is 6 s of a development song, so this reads nothing of the held-out sets.
 */
import { STEM_TYPES, type StemType } from '@stemdeck/audio';
// Measurement code beside the model, kept out of the library's exports (the media service has no use for it).
import { loadRegressionClip, REGRESSION_ENGINES, regressionFloor, separateRegressionClip, type RegressionEngine } from '@stemdeck/audio/dist/separation/onnx/regression-clip';

async function main(): Promise<void> {
  const at = process.argv.indexOf('--margin');
  const margin = at > 0 ? Number(process.argv[at + 1]) : 1;
  if (!Number.isFinite(margin) || margin < 0) throw new Error('--margin takes a number of dB, 0 or more');
  const clip = await loadRegressionClip();
  const floors = {} as Record<RegressionEngine, Record<StemType, number>>;
  for (const engine of REGRESSION_ENGINES) {
    const { sdr } = await separateRegressionClip(clip, engine);
    floors[engine] = Object.fromEntries(STEM_TYPES.map((stem) => [stem, regressionFloor(sdr[stem], margin)])) as Record<StemType, number>;
    console.log(`${engine.padEnd(8)} ${STEM_TYPES.map((stem) => `${stem} ${sdr[stem].toFixed(2)} (floor ${floors[engine][stem].toFixed(1)})`).join('  ')}`);
  }
  console.log(JSON.stringify(floors));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
