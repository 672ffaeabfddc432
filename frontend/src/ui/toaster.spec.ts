import { createToaster } from '@chakra-ui/react';
import { createStudioToaster } from './toaster';

/**
 * The studio's toast policy over a real Chakra store. Nothing renders here, so a toast leaves the screen
 * only when the spec says so (`leave`: what the toaster does after a toast's exit animation).
 */
function setup() {
  const store = createToaster({ placement: 'bottom-end', max: 1, duration: 5000 });
  const toaster = createStudioToaster(store);
  const onScreen = () => store.getVisibleToasts().map((toast) => ({ title: toast.title, description: toast.description, duration: toast.duration }));
  const leave = async () => {
    store.remove(store.getVisibleToasts()[0]!.id);
    await Promise.resolve();
  };
  return { toaster, store, onScreen, leave };
}

describe('the studio toaster', () => {
  it('shows one toast at a time and the next in order once it has left', async () => {
    const { toaster, onScreen, leave } = setup();
    toaster.create({ title: 'Export ready!', description: 'song - full mix.wav', type: 'success' });
    toaster.create({ title: 'Project exported!', description: 'song - project data.zip', type: 'success' });
    expect(onScreen().map((toast) => toast.title)).toEqual(['Export ready!']);
    await leave();
    expect(onScreen().map((toast) => toast.title)).toEqual(['Project exported!']);
    await leave();
    expect(onScreen()).toEqual([]);
  });

  it('updates the toast on screen when the same news comes again, and starts its time again', () => {
    const { toaster, onScreen } = setup();
    const first = toaster.create({ title: 'Export ready!', description: 'song - full mix.wav', type: 'success' });
    const again = toaster.create({ title: 'Export ready!', description: 'song - full mix.flac', type: 'success' });
    expect(again).toBe(first);
    // A changed duration is what makes Chakra's toast restart its timer.
    expect(onScreen()).toEqual([{ title: 'Export ready!', description: 'song - full mix.flac', duration: 5001 }]);
    toaster.create({ title: 'Export ready!', description: 'song - stems.zip', type: 'success' });
    expect(onScreen()).toEqual([{ title: 'Export ready!', description: 'song - stems.zip', duration: 5000 }]);
  });

  it('keeps one place in line for news repeated while it waits; the next news is not held up by repeats', async () => {
    const { toaster, onScreen, leave } = setup();
    toaster.create({ title: 'Stem Updated', description: 'Vocals 40%', type: 'info' });
    for (const file of ['a.wav', 'b.wav', 'c.wav']) toaster.create({ title: 'Export ready!', description: file, type: 'success' });
    toaster.create({ title: 'Project exported!', description: 'song.zip', type: 'success' });
    await leave();
    // Shown with news behind it: the shorter time.
    expect(onScreen()).toEqual([{ title: 'Export ready!', description: 'c.wav', duration: 2500 }]);
    await leave();
    expect(onScreen()).toEqual([{ title: 'Project exported!', description: 'song.zip', duration: 5000 }]);
  });

  describe('different news waiting', () => {
    let now = 1_000_000;
    beforeEach(() => void jest.spyOn(Date, 'now').mockImplementation(() => now));
    afterEach(() => jest.restoreAllMocks());

    it('cuts the toast on screen to 2.5 s from when it appeared, and gives each toast with news behind it 2.5 s', async () => {
      const { toaster, onScreen, leave } = setup();
      toaster.create({ title: 'Audio uploaded successfully', type: 'success' });
      now += 500;
      toaster.create({ title: 'Invalid file type', description: 'cover.png is not a valid audio or video file', type: 'error' });
      // Its timer starts again with what is left of its 2.5 s.
      expect(onScreen()).toEqual([{ title: 'Audio uploaded successfully', description: undefined, duration: 2000 }]);
      toaster.create({ title: 'Copied', type: 'success' });
      await leave();
      expect(onScreen().map((toast) => [toast.title, toast.duration])).toEqual([['Invalid file type', 2500]]);
      await leave();
      expect(onScreen().map((toast) => [toast.title, toast.duration])).toEqual([['Copied', 5000]]);
    });

    it('leaves a toast that was nearly done its last second, and does not lengthen one', () => {
      const { toaster, onScreen } = setup();
      toaster.create({ title: 'Stem Updated', type: 'info' });
      now += 2400;
      toaster.create({ title: 'Copied', type: 'success' });
      expect(onScreen().map((toast) => toast.duration)).toEqual([1000]);
      now += 900;
      toaster.create({ title: 'Project exported!', type: 'success' });
      expect(onScreen().map((toast) => toast.duration)).toEqual([1000]);
    });

    it('does not let a repeat of the news on screen hold the line up: its words change, its time does not', () => {
      const { toaster, onScreen } = setup();
      toaster.create({ title: 'Stem Updated', description: 'Vocals 40%', type: 'info' });
      toaster.create({ title: 'Copied', type: 'success' });
      now += 1000;
      toaster.create({ title: 'Stem Updated', description: 'Vocals 35%', type: 'info' });
      expect(onScreen()).toEqual([{ title: 'Stem Updated', description: 'Vocals 35%', duration: 2500 }]);
    });

    it('keeps a held toast as it is', () => {
      const { toaster, store, onScreen } = setup();
      toaster.create({ title: 'Stem Updated', type: 'info' });
      store.pause();
      toaster.create({ title: 'Copied', type: 'success' });
      expect(onScreen().map((toast) => toast.duration)).toEqual([5000]);
    });

    it('holds three: the oldest waiting news that is not an error gives way, errors never do', async () => {
      const { toaster, onScreen, leave } = setup();
      toaster.create({ title: 'Stem Updated', type: 'info' });
      toaster.create({ title: 'Error', description: 'The export failed', type: 'error' });
      for (const title of ['Copied', 'Project exported!', 'Export ready!', 'Link created']) toaster.create({ title, type: 'success' });
      const seen: string[] = [];
      for (let i = 0; i < 5 && onScreen().length; i++) {
        seen.push(String(onScreen()[0]!.title));
        await leave();
      }
      expect(seen).toEqual(['Stem Updated', 'Error', 'Export ready!', 'Link created']);
    });
  });

  it('shows the same error pressed twice once, its time started again', () => {
    const { toaster, onScreen } = setup();
    toaster.create({ title: 'No audio loaded', description: 'Please load an audio file first', type: 'error' });
    toaster.create({ title: 'No audio loaded', description: 'Please load an audio file first', type: 'error' });
    expect(onScreen()).toEqual([{ title: 'No audio loaded', description: 'Please load an audio file first', duration: 5001 }]);
  });

  it('lets every different error wait its turn: none replaces another', async () => {
    const { toaster, onScreen, leave } = setup();
    toaster.create({ title: 'Error', description: 'The first thing failed', type: 'error' });
    toaster.create({ title: 'Error', description: 'The second thing failed', type: 'error' });
    expect(onScreen().map((toast) => toast.description)).toEqual(['The first thing failed']);
    await leave();
    expect(onScreen().map((toast) => toast.description)).toEqual(['The second thing failed']);
  });

  it('does not call back a toast that has begun to leave: the repeat waits for the next turn', async () => {
    const { toaster, store, onScreen, leave } = setup();
    toaster.create({ title: 'Copied', type: 'success' });
    // What the toast does when its time runs out or it is swiped away: it tells its status, then animates out.
    store.getVisibleToasts()[0]!.onStatusChange?.({ status: 'dismissing' });
    toaster.create({ title: 'Copied', description: 'again', type: 'success' });
    expect(onScreen()).toEqual([{ title: 'Copied', description: undefined, duration: 5000 }]);
    await leave();
    expect(onScreen()).toEqual([{ title: 'Copied', description: 'again', duration: 5000 }]);
  });

  it('keeps a held toast paused: a repeat changes its words, not its time', () => {
    const { toaster, store, onScreen } = setup();
    toaster.create({ title: 'Stem Updated', description: 'Vocals 40%', type: 'info' });
    store.pause(); // what the pointer over the toasts, or F8, does
    toaster.create({ title: 'Stem Updated', description: 'Vocals 35%', type: 'info' });
    expect(onScreen()).toEqual([{ title: 'Stem Updated', description: 'Vocals 35%', duration: 5000 }]);
  });

  it('drops the old words when the repeat has none', () => {
    const { toaster, onScreen } = setup();
    toaster.create({ title: 'Copied', description: 'the link', type: 'success' });
    toaster.create({ title: 'Copied', type: 'success' });
    expect(onScreen()).toEqual([{ title: 'Copied', description: undefined, duration: 5001 }]);
  });

  it('shows news again after its toast has gone', async () => {
    const { toaster, onScreen, leave } = setup();
    toaster.create({ title: 'Copied', type: 'success' });
    await leave();
    toaster.create({ title: 'Copied', type: 'success' });
    expect(onScreen().map((toast) => toast.title)).toEqual(['Copied']);
  });
});
