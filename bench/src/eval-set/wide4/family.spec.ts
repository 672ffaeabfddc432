import * as path from 'node:path';
import { Rng } from '../random';
import { wideCatalog } from '../wide/catalog';
import { HYDROGEN_KITS, HYDROGEN_KITS_DIR } from '../wide3/kits';
import { easReverb, SONIVOX, WIDE4_FAMILY } from './family';

describe('the fourth training family', () => {
  it('picks an EAS reverb preset by the stem\'s room size and its wet mix by the level', () => {
    expect(easReverb({ roomSize: 0.9, damping: 0.2, width: 1, level: 1 })).toEqual({ preset: 0, wet: 13107 });
    expect(easReverb({ roomSize: 0.7, damping: 0.2, width: 1, level: 0.5 }).preset).toBe(1);
    expect(easReverb({ roomSize: 0.65, damping: 0.2, width: 1, level: 0.5 }).preset).toBe(2);
    expect(easReverb({ roomSize: 0.55, damping: 0.2, width: 1, level: 0 })).toEqual({ preset: 3, wet: 0 });
  });

  it('plays the drums on Sonivox one song in three and on a Hydrogen kit otherwise', () => {
    const picks = Array.from({ length: 600 }, (_, seed) => WIDE4_FAMILY.drumSoundfont(0, new Rng(seed + 1)));
    const sonivox = picks.filter((p) => p === SONIVOX).length;
    expect(sonivox / picks.length).toBeGreaterThan(0.27);
    expect(sonivox / picks.length).toBeLessThan(0.4);
    const kits = new Set(picks.filter((p) => p !== SONIVOX).map((p) => path.relative(HYDROGEN_KITS_DIR, p)));
    expect([...kits].sort()).toEqual([...HYDROGEN_KITS].sort());
  });

  it('writes songs of its own: ids, and so songs, that differ from the third family\'s', () => {
    const wide4 = wideCatalog(8, 30, 1, 'wide4');
    const wide3 = wideCatalog(8, 30, 1, 'wide3');
    expect(wide4.map((t) => t.id)).toEqual(Array.from({ length: 8 }, (_, i) => `wide4-1-000${i + 1}`));
    expect(wide4.map((t) => t.seed)).not.toEqual(wide3.map((t) => t.seed));
    expect(wide4.map((t) => t.vocal)).toEqual(wide3.map((t) => t.vocal));
  });
});
