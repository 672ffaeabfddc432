import { freepatsFullConfig } from './freepats';

const FREEPATS = `dir /usr/share/midi/freepats

drumset 0

 35\tDrum_000/035_Kick_1.pat amp=100
 38\tDrum_000/038_Snare_1.pat
 42\tDrum_000/042_Hi-Hat_Closed.pat

bank 0

 0\tTone_000/000_Acoustic_Grand_Piano.pat amp=120
 4\tTone_000/004_Electric_Piano_1_Rhodes.pat
 9\tTone_000/009_Glockenspiel.pat
 33\tTone_000/033_Fingered_Bass.pat
`;

function entries(config: string) {
  const melodic = new Map<number, string>();
  const kits = new Map<number, Map<number, string>>();
  let kit: Map<number, string> | undefined;
  for (const line of config.split('\n')) {
    const head = /^(bank|drumset) (\d+)$/.exec(line);
    if (head) {
      kit = head[1] === 'bank' ? undefined : new Map();
      if (kit) kits.set(Number(head[2]), kit);
      continue;
    }
    const entry = /^(\d+) (.+)$/.exec(line);
    if (entry) (kit ?? melodic).set(Number(entry[1]), entry[2]);
  }
  return { melodic, kits };
}

describe('freepatsFullConfig', () => {
  const config = freepatsFullConfig(FREEPATS);
  const { melodic, kits } = entries(config);

  it('names every program of bank 0 and every note of every drum set, so nothing falls through to another configuration', () => {
    expect(config.split('\n')[1]).toBe('dir /usr/share/midi/freepats');
    expect([...melodic.keys()]).toEqual(Array.from({ length: 128 }, (_, p) => p));
    expect([...kits.keys()]).toEqual(Array.from({ length: 128 }, (_, k) => k));
    for (const kit of kits.values()) expect(kit.size).toBe(128);
  });

  it('keeps the patches freepats has, with their options', () => {
    expect(melodic.get(0)).toBe('Tone_000/000_Acoustic_Grand_Piano.pat amp=120');
    expect(kits.get(0)!.get(35)).toBe('Drum_000/035_Kick_1.pat amp=100');
    expect(kits.get(25)!.get(38)).toBe('Drum_000/038_Snare_1.pat');
  });

  it('takes a missing program from its own General MIDI family first, then the nearest', () => {
    // 7 (clavinet) is nearer 9 than 4, but 4 is a piano like it; 12 (marimba) has only 9 in its family.
    expect(melodic.get(7)).toBe('Tone_000/004_Electric_Piano_1_Rhodes.pat');
    expect(melodic.get(12)).toBe('Tone_000/009_Glockenspiel.pat');
    expect(melodic.get(39)).toBe('Tone_000/033_Fingered_Bass.pat');
    // No string in 40–47: the nearest program at all.
    expect(melodic.get(44)).toBe('Tone_000/033_Fingered_Bass.pat');
  });

  it('takes a missing drum note from the nearest one freepats has', () => {
    expect(kits.get(0)!.get(36)).toBe('Drum_000/035_Kick_1.pat amp=100');
    expect(kits.get(8)!.get(40)).toBe('Drum_000/038_Snare_1.pat');
    expect(kits.get(8)!.get(46)).toBe('Drum_000/042_Hi-Hat_Closed.pat');
  });

  it('refuses a configuration with nothing in it', () => {
    expect(() => freepatsFullConfig('dir /x\n')).toThrow('freepats.cfg names no programs or drums');
  });
});
