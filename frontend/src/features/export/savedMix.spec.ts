import { mixFieldsTaken, unsavedMixNote, unsavedStems, waitForSavedMix } from './savedMix';

type Mix = { id: string; type: 'vocals' | 'drums' | 'bass' | 'other'; volume: number; muted: boolean; soloed: boolean; version: 'original' | 'enhanced' };
const stem = (type: Mix['type'], over: Partial<Mix> = {}): Mix => ({ id: `p1-fast-${type}`, type, volume: 0, muted: false, soloed: false, version: 'original', ...over });
const SAVED = [stem('vocals'), stem('drums'), stem('bass'), stem('other')];
const FULL_MIX = mixFieldsTaken('full-mix', 'raw');

/** A clock that moves only when the wait sleeps, and the reads the wait made. */
function fakeTime() {
  let clock = 0;
  const slept: number[] = [];
  return { slept, now: () => clock, sleep: async (ms: number) => void (slept.push(ms), (clock += ms)) };
}

describe('which saved fields an export takes', () => {
  it('a full mix takes every stem’s volume, mute, solo and version; single stems their version; a master none', () => {
    expect(mixFieldsTaken('full-mix', 'raw')).toEqual(['volume', 'muted', 'soloed', 'version']);
    expect(mixFieldsTaken('full-mix', 'dolby')).toEqual(['volume', 'muted', 'soloed', 'version']);
    expect(mixFieldsTaken('individual', 'raw')).toEqual(['version']);
    expect(mixFieldsTaken('selected', 'both')).toEqual(['version']);
    expect(mixFieldsTaken('full-mix', 'landr')).toEqual([]);
  });

  it('names the stems whose saved state differs in those fields; stems the server does not list are not waited for', () => {
    const shown = [stem('vocals', { volume: -6 }), stem('drums'), stem('bass', { muted: true }), stem('other', { version: 'enhanced' })];
    expect(unsavedStems(shown, SAVED, FULL_MIX)).toEqual(['vocals', 'bass', 'other']);
    expect(unsavedStems(shown, SAVED, ['version'])).toEqual(['other']);
    expect(unsavedStems([stem('vocals', { volume: -6.0000001 })], [stem('vocals', { volume: -6 })], FULL_MIX)).toEqual([]);
    expect(unsavedStems([{ ...stem('vocals', { volume: -6 }), id: 'p1-quality-vocals' }], SAVED, FULL_MIX)).toEqual([]);
  });
});

describe('waiting for the mix to be saved', () => {
  it('reads again until the saved stems carry the shown mix', async () => {
    const time = fakeTime();
    const answers = [SAVED, SAVED, [stem('vocals', { volume: -6 }), ...SAVED.slice(1)]];
    const read = jest.fn(async () => answers.shift()!);
    const unsaved = await waitForSavedMix({ read, shown: () => [stem('vocals', { volume: -6 })], fields: FULL_MIX, ...time, pollMs: 150, waitMs: 4000 });
    expect(unsaved).toEqual([]);
    expect(read).toHaveBeenCalledTimes(3);
    expect(time.slept).toEqual([150, 150]);
  });

  it('gives up after the wait and names what is still unsaved (a refused save is not retried)', async () => {
    const time = fakeTime();
    const read = jest.fn(async () => SAVED);
    const unsaved = await waitForSavedMix({ read, shown: () => [stem('bass', { muted: true })], fields: FULL_MIX, ...time, pollMs: 150, waitMs: 1000 });
    expect(unsaved).toEqual(['bass']);
    expect(time.now()).toBeLessThanOrEqual(1000);
    expect(read.mock.calls.length).toBeGreaterThanOrEqual(6);
    expect(unsavedMixNote(unsaved)).toBe('The latest mixer change to bass was not saved in time, so this export has the last saved mix.');
  });

  it('does not wait when the export takes nothing of the mix, or the stems cannot be read', async () => {
    const read = jest.fn(async () => SAVED);
    expect(await waitForSavedMix({ read, shown: () => [stem('vocals', { volume: -6 })], fields: [], ...fakeTime() })).toEqual([]);
    expect(read).not.toHaveBeenCalled();
    const failing = jest.fn(async () => Promise.reject(new Error('offline')));
    expect(await waitForSavedMix({ read: failing, shown: () => [stem('vocals', { volume: -6 })], fields: FULL_MIX, ...fakeTime() })).toEqual([]);
    expect(failing).toHaveBeenCalledTimes(1);
  });

  it('a change made while waiting is waited for too', async () => {
    const time = fakeTime();
    let shown = [stem('vocals', { volume: -6 })];
    const answers = [SAVED, [stem('vocals', { volume: -6 })], [stem('vocals', { volume: -6 })], [stem('vocals', { volume: -9 })]];
    const read = jest.fn(async () => {
      const answer = answers.shift()!;
      if (answers.length === 2) shown = [stem('vocals', { volume: -9 })];
      return answer;
    });
    expect(await waitForSavedMix({ read, shown: () => shown, fields: FULL_MIX, ...time })).toEqual([]);
    expect(read).toHaveBeenCalledTimes(4);
  });
});
