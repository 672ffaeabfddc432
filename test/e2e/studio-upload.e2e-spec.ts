import { closeSync, openSync, readFileSync, writeFileSync, ftruncateSync } from 'node:fs';
import type { Page, Request } from 'playwright-core';
import { chromiumPerTest, signInThroughKeycloak } from '../support/browser';
import { BASE_URL } from '../support/env';
import { fixturePath, makeClip } from '../support/media';
import { waitForStems, waitForToast } from '../support/studio';
import { MAX_UPLOAD_BYTES } from '@stemdeck/proto/vocabulary';

jest.setTimeout(120_000);

/** Seconds shown by the timeline (m:ss). */
async function shownSeconds(page: Page): Promise<number> {
  const [minutes, seconds] = (await page.getByTestId('timeline-current').innerText()).split(':').map(Number);
  return minutes! * 60 + seconds!;
}

async function meterLevel(page: Page, type: string): Promise<number> {
  return Number(await page.getByTestId(`meter-${type}`).getAttribute('data-level'));
}

const toast = waitForToast;

type LiveFrame = Record<string, unknown> & { type: string };

/** Every /ws frame the page sends and receives from now on (a reload's new socket too), parsed; `next` waits for one after a mark. */
function watchLive(page: Page) {
  const sent: LiveFrame[] = [];
  const received: LiveFrame[] = [];
  page.on('websocket', (socket) => {
    socket.on('framesent', (frame) => typeof frame.payload === 'string' && sent.push(JSON.parse(frame.payload) as LiveFrame));
    socket.on('framereceived', (frame) => typeof frame.payload === 'string' && received.push(JSON.parse(frame.payload) as LiveFrame));
  });
  async function next(frames: LiveFrame[], from: number, match: (frame: LiveFrame) => boolean, timeoutMs = 10_000): Promise<LiveFrame> {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await page.waitForTimeout(20)) {
      const found = frames.slice(from).find(match);
      if (found) return found;
    }
    throw new Error(`no matching /ws frame within ${timeoutMs} ms; saw ${JSON.stringify(frames.slice(from).map((f) => f.type))}`);
  }
  return {
    mark: () => ({ sent: sent.length, received: received.length }),
    /** The vocals stem's next save sent after `mark`, once the gateway has answered it stored (`stem_saved`). */
    async vocalsSaved(mark: { sent: number; received: number }): Promise<LiveFrame> {
      const update = await next(sent, mark.sent, (f) => f.type === 'stem_update' && /-vocals$/.test(String(f.stemId)));
      await next(received, mark.received, (f) => f.type === 'stem_saved' && f.id === update.id);
      return update;
    },
  };
}

/** A stem_update's changes, without the message's own fields. */
const changesOf = ({ type: _type, id: _id, stemId: _stemId, ...changes }: LiveFrame) => changes;

describe('Upload & Split in Chromium', () => {
  const chromium = chromiumPerTest({ width: 1400, height: 1000 });
  let page: Page;
  let uploads: Request[];
  let live: ReturnType<typeof watchLive>;

  beforeEach(async () => {
    page = chromium.page;
    uploads = [];
    live = watchLive(page);
    page.on('request', (request) => request.url().endsWith('/api/upload') && uploads.push(request));
    await signInThroughKeycloak(page);
    await page.goto(`${BASE_URL}/app`);
    await page.getByTestId('upload-panel').waitFor();
  });

  it('uploads through the file chooser, shows progress and four stems; Play, Pause, Stop; mute silences one meter and survives a reload', async () => {
    const song = makeClip('e2e-song-20s.mp3', 20, { codecArgs: ['-b:a', '128k'] });
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose File' }).click();
    await (await chooser).setFiles(song);
    await page.getByTestId('selected-file').getByText('e2e-song-20s.mp3').waitFor();
    await page.getByTestId('selected-file').getByText(/^0\.\d\d MB$/).waitFor();

    const sawUploadProgress = page.getByText('Processing your music...').waitFor({ timeout: 30_000 });
    const sawSeparation = page.getByTestId('separation-fast').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Split into Stems' }).click();
    await sawUploadProgress;
    await toast(page, 'Audio uploaded successfully', /^Analysis complete: \d+(\.\d+)? BPM, [A-G]#? (major|minor)$/);
    await sawSeparation;
    await waitForStems(page);
    expect(await page.getByTestId('current-file').innerText()).toBe('e2e-song-20s.mp3');
    expect(await page.getByTestId('timeline-duration').innerText()).toBe('0:20');
    await page.getByTestId('selected-file').waitFor({ state: 'detached' });

    // Play advances the time; Pause holds it; Stop returns to 0:00.
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    // 2 s or more (a page held up a moment may never show 0:02 itself).
    await page.waitForFunction(
      () => {
        const [minutes, seconds] = (document.querySelector('[data-testid="timeline-current"]')?.textContent ?? '').split(':').map(Number);
        return minutes! * 60 + seconds! >= 2;
      },
      undefined,
      { timeout: 10_000 },
    );
    expect(await page.getByRole('button', { name: 'Play', exact: true }).isDisabled()).toBe(true);

    // Muting vocals saves it over /ws (answered stem_saved once stored) and silences its meter while the
    // other stems' meters keep moving.
    const beforeMute = live.mark();
    await page.getByRole('button', { name: 'Mute vocals' }).click();
    expect(changesOf(await live.vocalsSaved(beforeMute))).toEqual({ muted: true });
    // Read while it keeps playing: a busy machine may hold the meters a moment (a reconnect's resync reloads the
    // stems), so they are read until they settle, for at most 5 s, and the last reading is what is judged.
    const readLevels = () => Promise.all(['vocals', 'drums', 'bass', 'other'].map((t) => meterLevel(page, t)));
    let levels = await readLevels();
    for (const until = Date.now() + 5_000; Date.now() < until; levels = await readLevels()) {
      if (levels[0] < 0.001 && Math.max(...levels.slice(1)) > 0.01) break;
      await page.waitForTimeout(200);
    }
    expect(await page.getByTestId('playback-state').innerText()).toContain('Playing');
    expect(levels[0]).toBeLessThan(0.001);
    expect(Math.max(...levels.slice(1))).toBeGreaterThan(0.01);

    await page.getByRole('button', { name: 'Pause' }).click();
    const held = await shownSeconds(page);
    expect(held).toBeGreaterThanOrEqual(2);
    await page.waitForTimeout(1200);
    expect(await shownSeconds(page)).toBe(held);
    expect(await page.getByTestId('playback-state').innerText()).toContain('Paused');
    await page.getByRole('button', { name: 'Stop' }).click();
    expect(await page.getByTestId('timeline-current').innerText()).toBe('0:00');
    expect(await page.getByTestId('time-readout').innerText()).toBe('0:00 / 0:20');
    // Clicking the timeline seeks: three quarters of 20 s.
    const bar = (await page.getByTestId('seek-bar').boundingBox())!;
    await page.mouse.click(bar.x + bar.width * 0.75, bar.y + bar.height / 2);
    await page.waitForFunction(() => document.querySelector('[data-testid="timeline-current"]')?.textContent === '0:15');

    // The mix is the server's: a reload restores the mute.
    await page.reload();
    await waitForStems(page);
    expect(await page.getByRole('button', { name: 'Mute vocals' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('button', { name: 'Mute drums' }).getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByTestId('quality-vocals').innerText()).toBe('engine: fast');

    // A second tab of the same user follows the mixer live (the saved change comes back as stem_updated on /ws).
    const otherTab = await chromium.context.newPage();
    await otherTab.goto(`${BASE_URL}/app`);
    await waitForStems(otherTab);
    await otherTab.locator('[data-testid="sidebar"] [data-testid="status-apis"][data-state="connected"]').waitFor();
    await page.getByRole('button', { name: 'Mute drums' }).click();
    await otherTab.locator('button[aria-label="Mute drums"][aria-pressed="true"]').waitFor();
    await otherTab.close();

    // Reset: 0 dB, unmuted, unsoloed (and saved).
    const beforeReset = live.mark();
    await page.getByRole('button', { name: 'Reset' }).click();
    expect(await page.getByRole('button', { name: 'Mute vocals' }).getAttribute('aria-pressed')).toBe('false');
    expect(changesOf(await live.vocalsSaved(beforeReset))).toEqual({ volume: 0, muted: false, soloed: false });

    // Reprocess with the hybrid engine (the generated ONNX model): progress, then its stems replace the fast ones.
    await page.getByTestId('engine-unavailable-quality').waitFor();
    expect(await page.locator('select[aria-label="Separation engine"] option[value="quality"]').isDisabled()).toBe(true);
    await page.getByLabel('Separation engine').selectOption('hybrid');
    const sawHybrid = page.getByTestId('separation-hybrid').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Reprocess' }).click();
    await sawHybrid;
    await page.getByText('Stem mixer · hybrid engine').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('quality-vocals').innerText()).toBe('engine: hybrid');
    expect(uploads).toHaveLength(1);
  });

  it('uploads a synthetic drop of several files, using the first audio file', async () => {
    const song = readFileSync(makeClip('e2e-drop-20s.ogg', 20, { codecArgs: ['-c:a', 'libvorbis'] })).toString('base64');
    const dataTransfer = await page.evaluateHandle((base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File(['not audio'], 'notes.txt', { type: 'text/plain' }));
      transfer.items.add(new File([bytes], 'dropped-song.ogg', { type: 'audio/ogg' }));
      return transfer;
    }, song);
    await page.getByTestId('drop-zone').dispatchEvent('dragenter', { dataTransfer });
    await page.waitForFunction(() => document.querySelector('[data-testid="drop-zone"]')?.getAttribute('data-state')?.startsWith('drag'));
    await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
    await page.getByTestId('selected-file').getByText('dropped-song.ogg').waitFor();
    await page.getByRole('button', { name: 'Split into Stems' }).click();
    await waitForStems(page);
    expect(await page.getByTestId('current-file').innerText()).toBe('dropped-song.ogg');
    expect(uploads).toHaveLength(1);
  });

  it('shows reject while a PNG is dragged over the drop zone, accept for audio', async () => {
    const zone = page.getByTestId('drop-zone');
    const dragOf = (type: string, name: string) =>
      page.evaluateHandle(
        ([fileType, fileName]) => {
          const transfer = new DataTransfer();
          transfer.items.add(new File(['x'], fileName!, { type: fileType }));
          return transfer;
        },
        [type, name],
      );
    await zone.dispatchEvent('dragenter', { dataTransfer: await dragOf('image/png', 'cover.png') });
    await page.locator('[data-testid="drop-zone"][data-state="drag-reject"]').waitFor();
    await zone.getByText('Only audio or video files can be split').waitFor();
    await zone.dispatchEvent('dragleave', { dataTransfer: await dragOf('image/png', 'cover.png') });
    await page.locator('[data-testid="drop-zone"][data-state="idle"]').waitFor();
    await zone.dispatchEvent('dragenter', { dataTransfer: await dragOf('audio/mpeg', 'song.mp3') });
    await page.locator('[data-testid="drop-zone"][data-state="drag-accept"]').waitFor();
    await zone.getByText('Drop it here').waitFor();
  });

  it('refuses a wrong type and a file over 500 MB with their toasts, sending nothing', async () => {
    const notes = fixturePath('e2e-notes.txt');
    writeFileSync(notes, 'just text');
    let chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose File' }).click();
    await (await chooser).setFiles(notes);
    await toast(page, 'Invalid file type', 'e2e-notes.txt is not a valid audio or video file');

    const big = fixturePath('e2e-too-big.wav');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, MAX_UPLOAD_BYTES + 1); // sparse: no disk used
    closeSync(fd);
    chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose File' }).click();
    await (await chooser).setFiles(big);
    await toast(page, 'File too large', `File is larger than ${MAX_UPLOAD_BYTES} bytes`);

    expect(await page.getByTestId('selected-file').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Split into Stems' }).isDisabled()).toBe(true);
    expect(uploads).toHaveLength(0);

    // A file that claims to be audio but is not: the server refuses it and the toast carries its message.
    const fake = fixturePath('e2e-fake.mp3');
    writeFileSync(fake, 'this is not an mp3 at all, just words');
    chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose File' }).click();
    await (await chooser).setFiles(fake);
    await page.getByRole('button', { name: 'Split into Stems' }).click();
    await toast(page, 'Upload failed', 'Please upload an audio or video file');
    expect(uploads).toHaveLength(1);
    expect(await page.getByRole('button', { name: 'Choose File' }).isDisabled()).toBe(false);
  });
});
