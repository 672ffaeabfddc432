import { fourStems } from '../testing/fake-media-projects';
import { masterPlan } from './master-plan';

const names = (plan: ReturnType<typeof masterPlan>) => plan.parts.map((part) => [part.name, part.stems.map((stem) => stem.type).sort()]);

describe('masterPlan', () => {
  it('full-mix: one master of the sounding stems, no sum', () => {
    const plan = masterPlan('full-mix', fourStems('p1', { other: { muted: true } }));
    expect(plan.sum).toBeUndefined();
    expect(names(plan)).toEqual([['master.flac', ['bass', 'drums', 'vocals']]]);
  });

  it('per-stem: each sounding stem at its saved volume, plus their sum; muted stems are skipped', () => {
    const plan = masterPlan('per-stem', fourStems('p1', { vocals: { volume: -3.5 }, other: { muted: true } }));
    expect(plan.sum).toBe('mix.flac');
    expect(names(plan).map(([name]) => name).sort()).toEqual(['bass.flac', 'drums.flac', 'vocals.flac']);
    expect(plan.parts.find((part) => part.name === 'vocals.flac')?.stems[0].volume).toBe(-3.5);
  });

  it('stem-groups: rhythm (drums+bass) and melodic (vocals+other) plus their sum; soloing silences the rest', () => {
    expect(names(masterPlan('stem-groups', fourStems('p1')))).toEqual([
      ['rhythm.flac', ['bass', 'drums']],
      ['melodic.flac', ['other', 'vocals']],
    ]);
    const soloed = masterPlan('stem-groups', fourStems('p1', { drums: { soloed: true } }));
    expect(names(soloed)).toEqual([['rhythm.flac', ['drums']]]);
    expect(soloed.sum).toBe('mix.flac');
  });

  it('nothing sounding: an empty plan', () => {
    const all = { muted: true };
    expect(masterPlan('per-stem', fourStems('p1', { vocals: all, drums: all, bass: all, other: all })).parts).toEqual([]);
  });
});
