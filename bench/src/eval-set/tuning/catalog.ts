import type { TrackSpec } from '../catalog';
import { hashSeed, Rng } from '../random';
import { STYLE_NAMES, type StyleName } from '../styles';
import { TUNING_STYLE_NAMES, TUNING_STYLES, type TuningStyleName } from './styles';

/** A song of the tempo tuning set: a development style or a tuning groove, from the development sources. */
export interface TuningTrackSpec extends TrackSpec {
  style: StyleName | TuningStyleName;
}

/** Tempi the development styles are played at, for the tuning set (wider than the development set's rows). */
const DEV_STYLE_BPM: Record<StyleName, readonly [number, number]> = {
  pop: [80, 136],
  rock: [100, 176],
  funk: [86, 120],
  house: [118, 130],
  synthpop: [96, 150],
  'hiphop-ballad': [64, 96],
  'soul-ballad': [60, 96],
  'drum-and-bass': [160, 180],
};

/** The tempi a development style or a tuning groove is played at. */
export function playedBpm(style: StyleName | TuningStyleName): readonly [number, number] {
  return style in TUNING_STYLES ? TUNING_STYLES[style as TuningStyleName].bpmRange : DEV_STYLE_BPM[style as StyleName];
}

/**
 * Each round of the catalogue: every tuning groove three times and every development style once, so the
 * grooves the development set lacks dominate while its straight backbeats stay in.
 */
const ROUND: (StyleName | TuningStyleName)[] = [
  ...TUNING_STYLE_NAMES.flatMap((name) => [name, name, name]),
  ...STYLE_NAMES,
];

/**
 * `count` songs of `seconds` each (`--set tempo`): song n takes style n of the round (repeated), its tempo
 * (an integer within the style's played range), tonic and mode drawn from a PRNG seeded by its id
 * "tempo-<seed>-<nnnn>", so song n is the same whatever `count` is. The label is the tempo written in the
 * MIDI file, the one a musician taps by the convention in ./styles.ts.
 */
export function tuningCatalog(count: number, seconds: number, seed: number): TuningTrackSpec[] {
  return Array.from({ length: count }, (_, i) => {
    const id = `tempo-${seed}-${String(i + 1).padStart(4, '0')}`;
    const draw = new Rng(hashSeed(`stemdeck-tempo-${id}`));
    const style = ROUND[(i + seed) % ROUND.length];
    const [low, high] = playedBpm(style);
    return {
      id,
      style,
      bpm: draw.int(low, high),
      tonicPitchClass: draw.int(0, 11),
      mode: draw.chance(0.5) ? 'major' : 'minor',
      durationSeconds: seconds,
      seed: hashSeed(`stemdeck-tempo-song-${id}`),
    };
  });
}
