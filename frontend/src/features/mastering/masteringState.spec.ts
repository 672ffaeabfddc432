import { comparedOutput, loudnessMatchGains } from './masteringState';

describe('loudness matching', () => {
  it('turns a louder master down by the measured difference', () => {
    const gains = loudnessMatchGains({ integratedLufs: -20 }, { integratedLufs: -14 }, true);
    expect(gains.original).toBe(1);
    expect(20 * Math.log10(gains.master)).toBeCloseTo(-6, 10);
  });

  it('turns a louder original down when the master is quieter', () => {
    const gains = loudnessMatchGains({ integratedLufs: -9 }, { integratedLufs: -12 }, true);
    expect(gains.master).toBe(1);
    expect(20 * Math.log10(gains.original)).toBeCloseTo(-3, 10);
  });

  it('plays both as they are when matching is off or a figure is missing', () => {
    expect(loudnessMatchGains({ integratedLufs: -20 }, { integratedLufs: -14 }, false)).toEqual({ original: 1, master: 1 });
    expect(loudnessMatchGains({ integratedLufs: -Infinity }, { integratedLufs: -14 }, true)).toEqual({ original: 1, master: 1 });
  });
});

describe('the output the A/B player compares', () => {
  it('is the sum for per-stem and stem-groups masters, the master for a full mix', () => {
    expect(comparedOutput([{ name: 'vocals.flac' }, { name: 'drums.flac' }, { name: 'mix.flac' }])).toEqual({ name: 'mix.flac' });
    expect(comparedOutput([{ name: 'rhythm.flac' }, { name: 'mix.flac' }, { name: 'melodic.flac' }])).toEqual({ name: 'mix.flac' });
    expect(comparedOutput([{ name: 'master.flac' }])).toEqual({ name: 'master.flac' });
    expect(comparedOutput([])).toBeUndefined();
  });
});
