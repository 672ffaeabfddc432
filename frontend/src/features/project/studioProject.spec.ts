/** @jest-environment jsdom */
import type { LiveServerMessage } from '@stemdeck/proto/live';
import type { Project, SeparationJob, Stem } from '../../api/mediaTypes';
import { createStore } from '../../app/store';
import type { StemPlayer } from '../../audio/stemPlayer';
import type { LiveChannel } from '../live/useLiveConnection';
import { stemsLoaded } from './projectSlice';
import { projectsApi } from './projectsApi';
import type { MixerStem } from './stems';
import { StudioProjectController } from './studioProject';

const STORED: Stem = { id: 'p1-fast-vocals', projectId: 'p1', type: 'vocals', engine: 'fast', url: '/api/stems/p1-fast-vocals/audio', volume: 0, muted: false, soloed: false, quality: 'fast', version: 'original', enhanced: null };
const VOCALS: MixerStem = STORED;

/**
 * The studio controller on a real store, with the save request, the player and the live channel replaced.
 * With `socketSaves` the live channel takes stem saves (answered by `socketSaves[i].answer()`); without,
 * it has none to offer (not connected), so saves go by PUT.
 */
function setUp(options: { socketSaves?: Array<{ stemId: string; changes: unknown; answer: () => void }> } = {}) {
  const store = createStore();
  store.dispatch(stemsLoaded({ stems: [VOCALS], partialSeconds: null }));
  const saves: Array<{ arg: unknown; answer: () => void }> = [];
  jest.spyOn(projectsApi.endpoints.updateStem, 'initiate').mockImplementation(((arg: unknown) => () =>
    new Promise<void>((resolve) => saves.push({ arg, answer: resolve }))) as never);
  const mixes: unknown[] = [];
  const player = { setMix: (stems: unknown) => void mixes.push(stems), onPosition: () => () => undefined };
  let listener: ((message: LiveServerMessage) => void) | undefined;
  const live: LiveChannel = {
    send: () => true,
    subscribe: (next) => ((listener = next), () => (listener = undefined)),
    connectionId: () => 'tab-a',
    saveStem: (stemId, changes) =>
      options.socketSaves ? new Promise<void>((answer) => options.socketSaves!.push({ stemId, changes, answer })) : null,
  };
  const controller = new StudioProjectController(store.dispatch, store.getState, player as unknown as StemPlayer, live);
  controller.start();
  const vocals = () => store.getState().project.stems[0]!;
  return { controller, saves, mixes, vocals, receive: (message: LiveServerMessage) => listener!(message) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('StudioProjectController: mixer changes', () => {
  afterEach(() => jest.restoreAllMocks());

  it('saves a change at once, naming this tab; changes made while it is on its way go next, merged', async () => {
    const { controller, saves, mixes, vocals } = setUp();
    controller.changeStem(VOCALS.id, { volume: -5 });
    expect(saves.map((s) => s.arg)).toEqual([{ id: VOCALS.id, changes: { volume: -5 }, connectionId: 'tab-a' }]);
    controller.changeStem(VOCALS.id, { volume: -6 });
    controller.changeStem(VOCALS.id, { muted: true });
    expect(saves).toHaveLength(1);
    expect(vocals()).toMatchObject({ volume: -6, muted: true });
    expect(mixes).toHaveLength(3);
    saves[0]!.answer();
    await settle();
    expect(saves.map((s) => s.arg)).toEqual([
      { id: VOCALS.id, changes: { volume: -5 }, connectionId: 'tab-a' },
      { id: VOCALS.id, changes: { volume: -6, muted: true }, connectionId: 'tab-a' },
    ]);
    saves[1]!.answer();
    await settle();
    controller.changeStem(VOCALS.id, { soloed: true });
    expect(saves).toHaveLength(3);
    controller.dispose();
  });

  it('saves over the open live socket when it can, one save per stem on its way, later changes merged behind it; no PUT', async () => {
    const socketSaves: Array<{ stemId: string; changes: unknown; answer: () => void }> = [];
    const { controller, saves, vocals } = setUp({ socketSaves });
    controller.changeStem(VOCALS.id, { volume: -5 });
    expect(socketSaves.map(({ stemId, changes }) => ({ stemId, changes }))).toEqual([{ stemId: VOCALS.id, changes: { volume: -5 } }]);
    controller.changeStem(VOCALS.id, { volume: -6 });
    controller.changeStem(VOCALS.id, { muted: true });
    expect(socketSaves).toHaveLength(1);
    expect(vocals()).toMatchObject({ volume: -6, muted: true });
    socketSaves[0]!.answer();
    await settle();
    expect(socketSaves.map(({ changes }) => changes)).toEqual([{ volume: -5 }, { volume: -6, muted: true }]);
    socketSaves[1]!.answer();
    await settle();
    controller.changeStem(VOCALS.id, { soloed: true });
    expect(socketSaves).toHaveLength(3);
    expect(saves).toEqual([]);
    controller.dispose();
  });

  it("applies another tab's stored change to the mix: only the fields it changed, nothing saved again", () => {
    const { controller, saves, mixes, vocals, receive } = setUp();
    controller.changeStem(VOCALS.id, { volume: -9 });
    receive({ type: 'stem_updated', stem: { ...STORED, volume: -20, muted: true }, changes: { muted: true } });
    expect(vocals()).toMatchObject({ volume: -9, muted: true });
    expect(mixes).toHaveLength(2);
    expect(mixes[1]).toEqual([expect.objectContaining({ id: VOCALS.id, volume: -9, muted: true })]);
    receive({ type: 'stem_updated', stem: { ...STORED, id: 'other-project-stem' }, changes: { muted: false } });
    expect(vocals().muted).toBe(true);
    expect(saves).toHaveLength(1);
    controller.dispose();
  });
});

describe('StudioProjectController: opening an upload', () => {
  afterEach(() => jest.restoreAllMocks());

  const answered: Project = { id: 'p1', name: 'song', originalFile: 'song.mp3', duration: 30.1, bpm: null, key: null, source: 'audio', activeEngine: null, createdAt: '2026-11-23T10:00:00.000Z' };
  const queued: SeparationJob = { id: 'j1', projectId: 'p1', engine: 'fast', status: 'queued', progress: 0, error: null, partialSeconds: null };

  /** The controller with the server's project read, its stems read and the player replaced. */
  function setUpOpening(server: Project) {
    const store = createStore();
    jest.spyOn(projectsApi.endpoints.getProject, 'initiate').mockImplementation((() => () => ({ unwrap: async () => server })) as never);
    const stemReads: unknown[] = [];
    jest.spyOn(projectsApi.endpoints.projectStems, 'initiate').mockImplementation(((arg: unknown) => () => {
      stemReads.push(arg);
      return { unwrap: async () => [VOCALS] };
    }) as never);
    const loads: Array<{ stems: unknown; partialSeconds: number | null }> = [];
    const player = {
      duration: 0,
      bpm: 0,
      setMix: () => undefined,
      onPosition: () => () => undefined,
      unload: () => undefined,
      load: async (stems: unknown, partialSeconds: number | null) => (loads.push({ stems, partialSeconds }), true),
    };
    let listener: ((message: LiveServerMessage) => void) | undefined;
    const live: LiveChannel = { send: () => true, subscribe: (next) => ((listener = next), () => (listener = undefined)), connectionId: () => 'tab-a', saveStem: () => null };
    const controller = new StudioProjectController(store.dispatch, store.getState, player as unknown as StemPlayer, live);
    controller.start();
    return { controller, store, player, loads, stemReads, receive: (message: LiveServerMessage) => listener!(message) };
  }

  it('keeps no events for a project that is not open, and reads what it missed from the server when it opens it', async () => {
    const running: SeparationJob = { ...queued, status: 'processing', progress: 0.3, partialSeconds: 5 };
    const { controller, store, player, loads, stemReads, receive } = setUpOpening({ ...answered, bpm: 128, key: 'A minor', duration: 30, jobs: [running] });
    // The first seconds and the analysis beat the upload's answer to this page.
    receive({ type: 'stems_partial', projectId: 'p1', engine: 'fast', seconds: 5, stems: [STORED] });
    receive({ type: 'project_analysed', projectId: 'p1', bpm: 128, key: 'A minor', duration: 30 });
    expect(loads).toEqual([]);
    await controller.open(answered, queued);
    expect(stemReads).toEqual([{ projectId: 'p1', engine: 'fast' }]);
    expect(loads).toEqual([{ stems: [VOCALS], partialSeconds: 5 }]);
    expect(store.getState().project).toMatchObject({ partialSeconds: 5, project: { bpm: 128, key: 'A minor', duration: 30 } });
    expect(player).toMatchObject({ bpm: 128, duration: 30 });
  });

  it("takes the open project's analysis when its event comes", async () => {
    const { controller, store, player, receive } = setUpOpening(answered);
    await controller.open(answered, queued);
    expect(store.getState().project.project?.bpm).toBeNull();
    receive({ type: 'project_analysed', projectId: 'p1', bpm: 97.5, key: 'F# minor', duration: 29.98 });
    expect(store.getState().project.project).toMatchObject({ bpm: 97.5, key: 'F# minor', duration: 29.98 });
    expect(store.getState().transport.file).toEqual({ name: 'song.mp3', duration: 29.98 });
    expect(player).toMatchObject({ bpm: 97.5, duration: 29.98 });
  });
});

describe("StudioProjectController: a stem's original and enhanced versions", () => {
  afterEach(() => jest.restoreAllMocks());

  const ENHANCED_URL = '/api/stems/p1-fast-vocals/audio?version=enhanced';
  const ENHANCEMENT = { jobId: 'job-1', createdAt: '2026-11-23T17:00:00.000Z' };
  const WITH_ENHANCED: MixerStem = { ...VOCALS, enhanced: ENHANCEMENT };

  /** The controller on a real store holding vocals with an enhanced version; the PUT answers as `answer` says. */
  function setUpVersions(answer: (changes: { version: string }) => Promise<Stem>, loaded: MixerStem = WITH_ENHANCED) {
    const store = createStore();
    store.dispatch(stemsLoaded({ stems: [loaded], partialSeconds: null }));
    const puts: unknown[] = [];
    jest.spyOn(projectsApi.endpoints.updateStem, 'initiate').mockImplementation(((arg: { changes: { version: string } }) => () => {
      puts.push(arg);
      return { unwrap: () => answer(arg.changes) };
    }) as never);
    const swaps: Array<{ id: string; url: string }> = [];
    const mixes: unknown[] = [];
    const player = { setMix: (stems: unknown) => void mixes.push(stems), onPosition: () => () => undefined, replaceStem: async (stem: { id: string; url: string }) => (swaps.push({ id: stem.id, url: stem.url }), true) };
    let listener: ((message: LiveServerMessage) => void) | undefined;
    const live: LiveChannel = { send: () => true, subscribe: (next) => ((listener = next), () => (listener = undefined)), connectionId: () => 'tab-a', saveStem: () => null };
    const controller = new StudioProjectController(store.dispatch, store.getState, player as unknown as StemPlayer, live);
    controller.start();
    const vocals = () => store.getState().project.stems[0]!;
    return { controller, puts, swaps, mixes, vocals, receive: (message: LiveServerMessage) => listener!(message) };
  }

  const stored = (version: 'original' | 'enhanced'): Stem => ({ ...STORED, enhanced: ENHANCEMENT, version, url: version === 'enhanced' ? ENHANCED_URL : STORED.url });

  it('saves the switch with a PUT naming this tab, then swaps that stem to the url the answer gives', async () => {
    const { controller, puts, swaps, vocals } = setUpVersions(async ({ version }) => stored(version as 'enhanced'));
    const switching = controller.switchVersion(VOCALS.id, 'enhanced');
    // The mixer shows the switch at once.
    expect(vocals().version).toBe('enhanced');
    await switching;
    expect(puts).toEqual([{ id: VOCALS.id, changes: { version: 'enhanced' }, connectionId: 'tab-a' }]);
    expect(vocals()).toMatchObject({ version: 'enhanced', url: ENHANCED_URL });
    expect(swaps).toEqual([{ id: VOCALS.id, url: ENHANCED_URL }]);

    await controller.switchVersion(VOCALS.id, 'original');
    expect(vocals()).toMatchObject({ version: 'original', url: STORED.url });
    expect(swaps.at(-1)).toEqual({ id: VOCALS.id, url: STORED.url });
    controller.dispose();
  });

  it('runs switches one after another, so the last one made is the one that plays', async () => {
    const answers: Array<() => void> = [];
    const { controller, puts, swaps, vocals } = setUpVersions(({ version }) => new Promise((resolve) => answers.push(() => resolve(stored(version as 'enhanced')))));
    const first = controller.switchVersion(VOCALS.id, 'enhanced');
    const second = controller.switchVersion(VOCALS.id, 'original');
    await settle();
    expect(puts).toHaveLength(1);
    answers[0]!();
    await first;
    await settle();
    expect(puts).toHaveLength(2);
    answers[1]!();
    await second;
    expect(swaps.map((swap) => swap.url)).toEqual([ENHANCED_URL, STORED.url]);
    expect(vocals().version).toBe('original');
    controller.dispose();
  });

  it('goes back when the server refuses, and offers nothing for a stem without an enhanced version', async () => {
    const { controller, swaps, vocals } = setUpVersions(async () => Promise.reject({ status: 409, data: { message: 'This stem has no enhanced version' } }));
    await controller.switchVersion(VOCALS.id, 'enhanced');
    expect(vocals()).toMatchObject({ version: 'original', url: STORED.url });
    expect(swaps).toEqual([]);
    controller.dispose();

    const plain = setUpVersions(async () => stored('enhanced'), VOCALS);
    await plain.controller.switchVersion(VOCALS.id, 'enhanced');
    expect(plain.puts).toEqual([]);
    expect(plain.vocals().version).toBe('original');
    plain.controller.dispose();
  });

  it('follows a switch made elsewhere or by a finished enhancement: the mixer and the player take the new version', () => {
    const { controller, swaps, mixes, vocals, receive } = setUpVersions(async () => stored('enhanced'), VOCALS);
    // The enhancement finished: media attached the enhanced version and switched the stem to it.
    receive({ type: 'stem_updated', stem: { ...stored('enhanced') }, changes: { version: 'enhanced' } });
    expect(vocals()).toMatchObject({ version: 'enhanced', url: ENHANCED_URL, enhanced: ENHANCEMENT });
    expect(swaps).toEqual([{ id: VOCALS.id, url: ENHANCED_URL }]);
    // A version change alone leaves the mix as it is.
    expect(mixes).toEqual([]);
    // A mix change from another tab swaps nothing.
    receive({ type: 'stem_updated', stem: { ...stored('enhanced'), muted: true }, changes: { muted: true } });
    expect(vocals().muted).toBe(true);
    expect(swaps).toHaveLength(1);
    receive({ type: 'stem_updated', stem: stored('original'), changes: { version: 'original' } });
    expect(swaps.at(-1)).toEqual({ id: VOCALS.id, url: STORED.url });
    controller.dispose();
  });
});
