import { STEM_TYPES } from '@stemdeck/proto';
import { levelAddress, OSC_DEFAULT_TARGET, padAddress, STUDIO_OSC_PREFIX } from './studio-control-messages';

/** Resolume's tempo fader over OSC takes 0..1 across 20..500 BPM. */
export const RESOLUME_TEMPO_RANGE = { min: 20, max: 500 } as const;
export const resolumeTempoValue = (bpm: number): number =>
  Math.min(1, Math.max(0, (bpm - RESOLUME_TEMPO_RANGE.min) / (RESOLUME_TEMPO_RANGE.max - RESOLUME_TEMPO_RANGE.min)));

export interface ResolumeClip {
  stem: string;
  /** Inside the resolume/ folder. */
  file: string;
  volumeDb: number;
  muted: boolean;
  soloed: boolean;
}

export interface ResolumeKitFacts {
  songName: string;
  durationSeconds: number;
  bpm: number;
  beatsPerBar: number;
  clips: readonly ResolumeClip[];
}

/** Layer n (from 1, Resolume counts layers from the bottom) holds stem n in the studio's order. */
const layerOf = (stem: string): number => STEM_TYPES.indexOf(stem as (typeof STEM_TYPES)[number]) + 1;

/** resolume/resolume.json. */
export function resolumeConfig(facts: ResolumeKitFacts) {
  const beatSeconds = 60 / facts.bpm;
  const clips = facts.clips.map((clip) => ({ ...clip, layer: layerOf(clip.stem), column: 1 }));
  return {
    format: 'stemdeck-resolume',
    version: 1,
    song: { name: facts.songName, durationSeconds: facts.durationSeconds },
    tempo: { bpm: facts.bpm, oscAddress: '/composition/tempocontroller/tempo', oscValue: resolumeTempoValue(facts.bpm), oscRange: RESOLUME_TEMPO_RANGE },
    beatGrid: {
      firstBeatSeconds: 0,
      beatsPerBar: facts.beatsPerBar,
      beatSeconds,
      barSeconds: beatSeconds * facts.beatsPerBar,
      beats: Math.ceil(facts.durationSeconds / beatSeconds),
      bars: Math.ceil(facts.durationSeconds / (beatSeconds * facts.beatsPerBar)),
    },
    clips,
    osc: {
      input: { host: OSC_DEFAULT_TARGET.host, port: OSC_DEFAULT_TARGET.port, note: "Resolume's OSC input (Preferences > OSC), where the Stemdeck OSC bridge sends by default" },
      /** Messages in Resolume's own address scheme that set the composition up for this song. */
      setup: [
        { address: '/composition/tempocontroller/tempo', type: 'f', value: resolumeTempoValue(facts.bpm), meaning: `${facts.bpm} BPM (0..1 across ${RESOLUME_TEMPO_RANGE.min}..${RESOLUME_TEMPO_RANGE.max} BPM)` },
        ...clips.map((clip) => ({ address: `/composition/layers/${clip.layer}/clips/${clip.column}/connect`, type: 'i', value: 1, meaning: `play the ${clip.stem} clip` })),
      ],
      /**
       * The studio's messages (its own /stemdeck addresses) and the Resolume control each one drives. Resolume
       * does not know /stemdeck addresses: assign them in Resolume's OSC shortcuts, or translate them with an
       * OSC router.
       */
      mapping: [
        { from: `${STUDIO_OSC_PREFIX}/transport`, args: ['play', 'position'], to: '/composition/columns/1/connect', type: 'i', value: 1, meaning: 'start the song: every stem clip of column 1 together' },
        { from: `${STUDIO_OSC_PREFIX}/transport`, args: ['play', 'position'], to: '/composition/tempocontroller/resync', type: 'i', value: 1, meaning: "restart Resolume's beat on the song's" },
        { from: `${STUDIO_OSC_PREFIX}/transport`, args: ['pause|stop', 'position'], to: '/composition/disconnectall', type: 'i', value: 1, meaning: 'stop every clip' },
        { from: `${STUDIO_OSC_PREFIX}/beat`, args: ['beat', 'bpm'], to: '/composition/tempocontroller/resync', type: 'i', value: 1, meaning: `on each downbeat (beat divisible by ${facts.beatsPerBar}): keep Resolume's bars on the song's` },
        ...clips.map((clip) => ({ from: levelAddress(clip.stem), args: ['rms 0..1'], to: `/composition/layers/${clip.layer}/video/opacity`, type: 'f', value: 'rms', meaning: `the ${clip.stem} layer's opacity follows the stem's level` })),
        ...clips.map((clip) => ({ from: padAddress(clip.stem), args: ['velocity 127'], to: `/composition/layers/${clip.layer}/clips/${clip.column}/connect`, type: 'i', value: 1, meaning: `the ${clip.stem} pad plays the ${clip.stem} clip` })),
      ],
    },
  };
}
export type ResolumeConfig = ReturnType<typeof resolumeConfig>;

/** resolume/README.txt. */
export function resolumeReadme(facts: ResolumeKitFacts): string {
  const layers = facts.clips.map((clip) => `  layer ${layerOf(clip.stem)}, column 1: ${clip.file}`).join('\n');
  return `Stemdeck for Resolume: ${facts.songName}
${'='.repeat(26 + facts.songName.length)}

Song: ${facts.durationSeconds.toFixed(3)} s, ${facts.bpm} BPM, ${facts.beatsPerBar} beats per bar, the first beat at 0 s.

clips/         the stems as WAV files (16-bit PCM at the stems' own sample rate), the
               versions the studio's mixer plays. Drop them onto the composition:
${layers}
               The mixer's volume, mute and solo are not applied to the files; they are
               listed per clip in resolume.json to set the layers' audio the same way.
resolume.json  the tempo (BPM and the value Resolume's tempo fader takes over OSC), the
               beat grid (first beat, beats per bar, beat and bar length), the clips and
               the OSC mapping below.

Tempo: set the composition's BPM to ${facts.bpm} (or send /composition/tempocontroller/tempo
${resolumeTempoValue(facts.bpm).toFixed(6)}: Resolume's tempo fader takes 0..1 across ${RESOLUME_TEMPO_RANGE.min}..${RESOLUME_TEMPO_RANGE.max} BPM).

Live OSC: turn on OSC input in Resolume (Preferences > OSC, port ${OSC_DEFAULT_TARGET.port} by default), start the
Stemdeck OSC bridge and turn on OSC output in the studio. The studio sends its own
/stemdeck addresses; resolume.json's "mapping" lists which Resolume control each one
drives (play starts column 1 and resyncs the tempo, pause and stop disconnect all,
each downbeat resyncs, a stem's level drives its layer's opacity, a stem's pad plays
its clip). Assign them in Resolume's OSC shortcuts (Shortcuts > Edit OSC, choose the
control, enter the /stemdeck address as its input) or through an OSC router.
`;
}
