import { assignVoices, parseDrumkit } from './kits';
import { Rng } from '../random';

const LAYERED = `<drumkit_info>
  <name>Test</name>
  <instrumentList>
    <instrument>
      <id>0</id>
      <name>Kick</name>
      <volume>0.9</volume>
      <pan_L>1</pan_L>
      <pan_R>0.5</pan_R>
      <layer><filename>bd_soft.wav</filename><min>0</min><max>0.5</max><gain>1.2</gain></layer>
      <layer><filename>bd_hard.wav</filename><min>0.5</min><max>1</max><gain>1</gain></layer>
    </instrument>
    <instrument>
      <id>1</id>
      <name>Snare</name>
      <filename>sn.wav</filename>
    </instrument>
    <instrument>
      <id>2</id>
      <name>Empty</name>
    </instrument>
  </instrumentList>
</drumkit_info>`;

describe('Hydrogen kits (the third training family)', () => {
  it('reads layered instruments and the older one-file form, and drops an instrument without samples', () => {
    const kit = parseDrumkit(LAYERED, '/', () => true);
    expect(kit.map((i) => i.name)).toEqual(['Kick', 'Snare']);
    expect(kit[0]).toMatchObject({ volume: 0.9, panL: 1, panR: 0.5 });
    expect(kit[0].layers).toEqual([
      { file: '/bd_soft.wav', min: 0, max: 0.5, gain: 1.2 },
      { file: '/bd_hard.wav', min: 0.5, max: 1, gain: 1 },
    ]);
    expect(kit[1].layers).toEqual([{ file: '/sn.wav', min: 0, max: 1, gain: 1 }]);
  });

  it('keeps only the layers whose sample is there', () => {
    const kit = parseDrumkit(LAYERED, '/', (file) => file !== '/bd_soft.wav' && file !== '/sn.wav');
    expect(kit.map((i) => i.name)).toEqual(['Kick']);
    expect(kit[0].layers.map((l) => l.file)).toEqual(['/bd_hard.wav']);
  });

  it('gives each drum voice the instrument its name says, and a stand-in where the kit has none', () => {
    const names = ['Kick', 'Snare Rock', 'Rim Stick', 'Closed HH', 'Open HH', 'Tom Hi', 'Tom Low', 'Crash 16', 'Crash 20'];
    const voices = assignVoices(names);
    const named = Object.fromEntries(Object.entries(voices).map(([voice, i]) => [voice, names[i!]]));
    expect(named).toMatchObject({
      kick: 'Kick',
      snare: 'Snare Rock',
      sideStick: 'Rim Stick',
      clap: 'Snare Rock',
      closedHat: 'Closed HH',
      pedalHat: 'Closed HH',
      openHat: 'Open HH',
      highTom: 'Tom Hi',
      midTom: 'Tom Hi',
      lowTom: 'Tom Low',
      floorTom: 'Tom Low',
      crash: 'Crash 16',
      crash2: 'Crash 20',
      ride: 'Crash 16',
      shaker: 'Closed HH',
    });
  });

  it('lets an electronic kit without toms or cymbals play fills on the snare and crashes on the open hat', () => {
    const names = ['Kick 1', 'Snare', 'Clap 1', 'Closed HH 1', 'Open HH'];
    const voices = assignVoices(names);
    expect(names[voices.lowTom!]).toBe('Snare');
    expect(names[voices.highTom!]).toBe('Snare');
    expect(names[voices.crash!]).toBe('Open HH');
    expect(names[voices.ride!]).toBe('Open HH');
  });

  it('draws among several matching instruments when given the song\'s random stream, the same for the same seed', () => {
    const names = ['Kick Lite', 'Kick Hard', 'Kick Stomp', 'Snare'];
    const drawn = (seed: number) => assignVoices(names, new Rng(seed)).kick;
    expect(drawn(5)).toBe(drawn(5));
    expect(new Set([1, 2, 3, 4, 5, 6, 7, 8].map(drawn)).size).toBeGreaterThan(1);
    expect(assignVoices(names).kick).toBe(0);
  });
});
