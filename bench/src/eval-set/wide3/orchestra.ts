import type { FluidReverb } from '../render';
import type { Rng } from '../random';
import type { MidiSong } from '../smf';

/**
 * The third family's instruments: a Csound orchestra of synthesized voices (FM, additive, plucked-string
 * waveguide, subtractive, FOF formant singing) that plays a stem's MIDI file. No sample set is involved: every
 * sound is synthesized, with its timbre drawn per render (brightness, resonance, detune, FM index, envelope
 * times, drawbars, vowel formants), so no two songs share one patch.
 */

/** Csound instrument per General MIDI program (0-based), by GM family; the bass family is drawn per render. */
export function instrumentFor(program: number): number {
  if (program < 8) return 1; // pianos: FM electric piano
  if (program < 16) return 2; // chromatic percussion: FM mallets
  if (program < 24) return 3; // organs: additive drawbars
  if (program < 32) return 4; // guitars: plucked-string waveguide
  if (program < 40) return 5; // basses (5 subtractive or 6 FM, drawn)
  if (program >= 52 && program <= 54) return 10; // choir, voice oohs, synth voice: FOF singer
  if (program < 56) return 7; // strings, ensembles: detuned saw section
  if (program < 64) return 8; // brass: filtered saw with a filter envelope
  if (program < 80) return 9; // reeds, pipes: breathy wind
  if (program < 88) return 8; // synth leads
  if (program < 104) return 7; // pads, effects
  if (program < 112) return 4; // ethnic: plucked
  if (program < 120) return 2; // percussive: mallets
  return 7;
}

type Vowel = [number, number, number, number, number];
/** Sung-vowel formants (Hz), levels (dB) and bandwidths (Hz) for a, e, i, o, u: tenor and soprano. */
const FORMANTS: Record<'tenor' | 'soprano', { freq: Vowel[]; db: Vowel[]; bw: Vowel[] }> = {
  tenor: {
    freq: [[650, 1080, 2650, 2900, 3250], [400, 1700, 2600, 3200, 3580], [290, 1870, 2800, 3250, 3540], [400, 800, 2600, 2800, 3000], [350, 600, 2700, 2900, 3300]],
    db: [[0, -6, -7, -8, -22], [0, -14, -12, -14, -20], [0, -15, -18, -20, -30], [0, -10, -12, -12, -26], [0, -20, -17, -14, -26]],
    bw: [[80, 90, 120, 130, 140], [70, 80, 100, 120, 120], [40, 90, 100, 120, 120], [40, 80, 100, 120, 120], [40, 60, 100, 120, 120]],
  },
  soprano: {
    freq: [[800, 1150, 2900, 3900, 4950], [350, 2000, 2800, 3600, 4950], [270, 2140, 2950, 3900, 4950], [450, 800, 2830, 3800, 4950], [325, 700, 2700, 3800, 4950]],
    db: [[0, -6, -32, -20, -50], [0, -20, -15, -40, -56], [0, -12, -26, -26, -44], [0, -11, -22, -22, -50], [0, -16, -35, -40, -60]],
    bw: [[80, 90, 120, 130, 140], [60, 100, 120, 150, 200], [60, 90, 100, 120, 120], [40, 80, 100, 120, 120], [50, 60, 170, 180, 200]],
  },
};

/** One render's drawn timbre. */
export interface Wide3Patch {
  seed: number;
  bassInstrument: 5 | 6;
  bright: number;
  resonance: number;
  detuneCents: number;
  attack: number;
  release: number;
  fmIndex: number;
  bellRatio: number;
  bassRatio: number;
  bassWave: number;
  drawbars: number[];
  pluckReflect: number;
  vibratoHz: number;
  vibratoCents: number;
  voice: 'tenor' | 'soprano';
  tract: number;
}

export function drawPatch(rng: Rng): Wide3Patch {
  const r2 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    seed: rng.int(1, 2 ** 30),
    bassInstrument: rng.chance(0.5) ? 5 : 6,
    bright: r2(rng.range(0, 1)),
    resonance: r2(rng.range(0.05, 0.6)),
    detuneCents: r2(rng.range(3, 16)),
    attack: r2(rng.range(0.5, 2.5)),
    release: r2(rng.range(0.05, 0.4)),
    fmIndex: r2(rng.range(1, 6)),
    bellRatio: rng.pick([2.76, 3.5, 4, 5.4, 1.41]),
    bassRatio: rng.pick([0.5, 1, 1, 2, 3]),
    bassWave: rng.pick([0, 10, 2, 12]),
    // The unison drawbar is always out, so every organ sounds.
    drawbars: Array.from({ length: 7 }, (_, i) => r2(i === 1 ? rng.range(0.5, 1) : rng.chance(0.6) ? rng.range(0.2, 1) : 0)),
    pluckReflect: r2(rng.range(0.2, 0.7)),
    vibratoHz: r2(rng.range(4.2, 6.8)),
    vibratoCents: r2(rng.range(8, 60)),
    voice: rng.chance(0.5) ? 'tenor' : 'soprano',
    tract: r2(rng.range(0.9, 1.1)),
  };
}

/**
 * The .csd that renders `midiFile` (the stem's MIDI, its channels as in `song`) to `wavPath` (float WAV) for
 * `seconds`: programs mapped by pgmassign, each channel's volume, pan and reverb send taken from the song's
 * channel setup, one reverbsc room for the stem from the family's reverb draw.
 */
export function csoundDocument(song: MidiSong, midiFile: string, wavPath: string, sampleRate: number, seconds: number, reverb: FluidReverb, p: Wide3Patch): string {
  const byChannel = (f: (c: MidiSong['channels'][number]) => number, fallback: number) =>
    Array.from({ length: 16 }, (_, ch) => {
      const c = song.channels.find((x) => x.channel === ch);
      return (c ? f(c) : fallback).toFixed(4);
    }).join(', ');
  const pans = byChannel((c) => (c.pan ?? 64) / 127, 0.5);
  const volumes = byChannel((c) => ((c.volume ?? 100) / 127) ** 2, 0.6);
  const sends = byChannel((c) => (c.reverbSend ?? 0) / 127, 0);
  const assign = Array.from({ length: 128 }, (_, prog) => {
    const inst = instrumentFor(prog);
    return `pgmassign ${prog + 1}, ${inst === 5 ? p.bassInstrument : inst}`;
  }).join('\n');
  const f = FORMANTS[p.voice];
  const table = (rows: Vowel[], scale = 1) => rows.flat().map((v) => (v * scale).toFixed(1)).join(', ');
  const feedback = (0.6 + 0.35 * reverb.roomSize).toFixed(3);
  const cutoff = Math.round(13000 - 9000 * reverb.damping);
  return `<CsoundSynthesizer>
<CsOptions>
-d -m0 --nodisplays -W -f -o ${wavPath} -F ${midiFile}
</CsOptions>
<CsInstruments>
sr = ${sampleRate}
ksmps = 32
nchnls = 2
0dbfs = 1
seed ${p.seed}
${assign}

giSine ftgen 0, 0, 16384, 10, 1
giSigm ftgen 0, 0, 1024, 19, 0.5, 0.5, 270, 0.5
giPan ftgen 0, 0, 16, -2, ${pans}
giVol ftgen 0, 0, 16, -2, ${volumes}
giSend ftgen 0, 0, 16, -2, ${sends}
giForm ftgen 0, 0, 32, -2, ${table(f.freq, p.tract)}
giFdb ftgen 0, 0, 32, -2, ${table(f.db)}
giFbw ftgen 0, 0, 32, -2, ${table(f.bw)}
gaL init 0
gaR init 0
gaRvb init 0

opcode Emit, 0, ai
  asig, ichn xin
  ipan table ichn - 1, giPan
  ivol table ichn - 1, giVol
  isend table ichn - 1, giSend
  gaL += asig * ivol * cos(ipan * 1.5707963)
  gaR += asig * ivol * sin(ipan * 1.5707963)
  gaRvb += asig * ivol * isend
endop

instr 1 ; FM electric piano
  ichn midichn
  icps cpsmidi
  ivel ampmidi 1
  kidx expseg ${p.fmIndex} * ivel + 0.3, 1.2, 0.2
  aenv madsr 0.002, 2.5, 0.05, ${p.release}
  atine expseg 1, 0.25, 0.001
  a1 foscili 0.3 * ivel, icps, 1, 1, kidx, giSine
  a2 foscili 0.06 * ivel * ivel, icps, 1, 14, 1.5, giSine
  Emit (a1 + a2 * atine) * aenv, ichn
endin

instr 2 ; FM mallets and bells
  ichn midichn
  icps cpsmidi
  ivel ampmidi 1
  idecay = 0.6 + 2.5 * ${p.bright}
  kidx expseg ${p.fmIndex} * ivel + 0.2, idecay, 0.1
  aenv madsr 0.001, idecay, 0.0, ${p.release}
  a1 foscili 0.3 * ivel, icps, 1, ${p.bellRatio}, kidx, giSine
  Emit a1 * aenv, ichn
endin

instr 3 ; additive drawbar organ
  ichn midichn
  icps cpsmidi
  ivel ampmidi 1
  aenv madsr 0.008, 0.01, 1, 0.06
  ktrem oscili 0.15 * ${p.bright}, 5.8
${organ(p.drawbars)}
  Emit asum * 0.12 * (0.6 + 0.4 * ivel) * aenv * (1 - ktrem), ichn
endin

instr 4 ; plucked-string waveguide
  ichn midichn
  icps cpsmidi
  ivel ampmidi 1
  aenv madsr 0.001, 0.01, 1, 0.08
  apl wgpluck2 0.1 + 0.3 * ${p.bright}, 0.4 * ivel, icps, 0.2, ${p.pluckReflect}
  apluck tone apl, 1500 + 9000 * ${p.bright} * ivel
  Emit apluck * aenv, ichn
endin

instr 5 ; subtractive bass
  ichn midichn
  icps cpsmidi
  ivel ampmidi 1
  aenv madsr 0.003, 0.3, 0.75, ${p.release}
  kfenv expseg 1, 0.25 + 0.4 * ${p.bright}, 0.05
  aosc vco2 0.35 * ivel, icps, ${p.bassWave}, 0.3
  asub oscili 0.2 * ivel, icps / 2, giSine
  kcut limit icps * (1.5 + 6 * ${p.bright}) * (1 + 3 * kfenv), 40, 12000
  afil moogladder aosc, kcut, ${p.resonance}
  Emit (afil + asub * ${(1 - p.bright).toFixed(3)}) * aenv, ichn
endin

instr 6 ; FM bass
  ichn midichn
  icps cpsmidi
  ivel ampmidi 1
  aenv madsr 0.002, 0.4, 0.7, ${p.release}
  kidx expseg ${p.fmIndex} * ivel + 0.5, 0.3, 0.4
  a1 foscili 0.35 * ivel, icps, 1, ${p.bassRatio}, kidx, giSine
  afil butterlp a1, 400 + 5000 * ${p.bright}
  Emit afil * aenv, ichn
endin

instr 7 ; detuned saw section (strings, pads)
  ichn midichn
  icps cpsmidi
  ivel ampmidi 1
  aenv madsr 0.05 * ${p.attack} + 0.02, 0.5, 0.8, ${p.release} * 3
  kvib oscili ${p.vibratoCents} / 4, ${p.vibratoHz}
  kc = icps * cent(kvib)
  a1 vco2 0.1, kc * cent(${p.detuneCents})
  a2 vco2 0.1, kc * cent(-${p.detuneCents})
  a3 vco2 0.1, kc, 2, 0.45
  afil butterlp a1 + a2 + a3, limit(icps * (2 + 10 * ${p.bright}), 200, 12000)
  Emit afil * ivel * aenv, ichn
endin

instr 8 ; brass and leads: filtered saw, filter envelope, delayed vibrato
  ichn midichn
  icps cpsmidi
  ivel ampmidi 1
  aenv madsr 0.02 * ${p.attack}, 0.2, 0.8, ${p.release}
  kfenv linseg 0, 0.04 * ${p.attack} + 0.01, 1, 0.3, 0.6
  kdepth linseg 0, 0.3, 0, 0.4, ${p.vibratoCents}
  kvib oscili kdepth, ${p.vibratoHz}
  aosc vco2 0.25 * ivel, icps * cent(kvib)
  kcut limit icps * (1.5 + (2 + 8 * ${p.bright}) * kfenv * ivel), 60, 14000
  afil moogladder aosc, kcut, ${p.resonance} * 0.7
  Emit afil * aenv, ichn
endin

instr 9 ; breathy wind
  ichn midichn
  icps cpsmidi
  ivel ampmidi 1
  aenv madsr 0.04 * ${p.attack} + 0.01, 0.1, 0.9, 0.1
  kdepth linseg 0, 0.25, 0, 0.4, ${p.vibratoCents}
  kvib oscili kdepth, ${p.vibratoHz}
  awave vco2 0.2 * ivel, icps * cent(kvib), 12
  anoise rand 0.2 * ivel
  abreath butterbp anoise, icps * 2, icps * 0.5
  afil tone awave + abreath * ${(0.2 + 0.6 * (1 - p.bright)).toFixed(3)}, 2000 + 6000 * ${p.bright}
  Emit afil * aenv, ichn
endin

instr 10 ; FOF singer, the vowel from the note
  ichn midichn
  inote notnum
  icps cpsmidi
  ivel ampmidi 1
  ivowel = (inote * 7 + 3) % 5
  aenv madsr 0.06, 0.1, 0.9, 0.15
  kdepth linseg 0, 0.2, 0, 0.5, ${p.vibratoCents}
  kvib oscili kdepth, ${p.vibratoHz}
  kjit jitter 8, 2, 6
  kf = icps * cent(kvib + kjit)
${singer()}
  Emit asum * ivel * aenv, ichn
endin

instr 99 ; the stem's room and output
  aL, aR reverbsc gaRvb, gaRvb, ${feedback}, ${cutoff}
  outs gaL + aL * ${reverb.level.toFixed(3)}, gaR + aR * ${reverb.level.toFixed(3)}
  clear gaL, gaR, gaRvb
endin
</CsInstruments>
<CsScore>
i 99 0 ${(seconds + 1).toFixed(2)}
e
</CsScore>
</CsoundSynthesizer>
`;
}

const DRAWBAR_RATIOS = [0.5, 1, 2, 3, 4, 6, 8];

/** One oscillator per pulled drawbar (written out: an opcode in a Csound loop is one instance, not several). */
function organ(drawbars: number[]): string {
  const lines = ['  asum = 0'];
  drawbars.forEach((w, i) => {
    if (w > 0) lines.push(`  asum += oscili(${w}, min(icps * ${DRAWBAR_RATIOS[i]}, sr / 2 - 100), giSine) * (icps * ${DRAWBAR_RATIOS[i]} < sr / 2 - 100 ? 1 : 0)`);
  });
  return lines.join('\n');
}

/** Five FOF formant generators, their centre, level and bandwidth read for the note's vowel. */
function singer(): string {
  const lines = ['  asum = 0'];
  for (let i = 0; i < 5; i++) {
    lines.push(
      `  iform${i} table ivowel * 5 + ${i}, giForm`,
      `  idb${i} table ivowel * 5 + ${i}, giFdb`,
      `  ibw${i} table ivowel * 5 + ${i}, giFbw`,
      `  asum += fof(ampdb(idb${i}) * 0.2, kf, iform${i}, 0, ibw${i}, 0.003, 0.02, 0.007, 100, giSine, giSigm, 3600)`,
    );
  }
  return lines.join('\n');
}
