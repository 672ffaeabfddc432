import type { Locator, Page } from 'playwright-core';
import { chromiumPerTest, signInThroughKeycloak, watchPage } from '../support/browser';
import { BASE_URL } from '../support/env';
import { makeClip } from '../support/media';
import { expectInViewport, uploadThroughChooser, waitForStems } from '../support/studio';

jest.setTimeout(300_000);

const MODES = ['Waveform', 'Spectrum', 'Particles', 'Circular', '3D Bars', 'Milkdrop'];
/**
 * The waits between samples of a moving picture: none a whole number of beats of the test song (120 BPM, a noise
 * hit and a flash every 500 ms, a steady tone between them) and all different. What a screenshot takes comes on
 * top of each wait; with one fixed wait, 370 ms plus a loaded machine's 130 ms came to exactly one beat, every
 * sample caught the same quiet moment of its beat, and the picture looked still while it moved.
 */
const SAMPLE_WAITS_MS = [370, 130, 260, 90, 410, 190, 320, 60];
/** At most this many samples after the first. */
const MOVING_SAMPLES = 16;
const MODE_IDS: Record<string, string> = { Waveform: 'waveform', Spectrum: 'spectrum', Particles: 'particles', Circular: 'circular', '3D Bars': 'bars3d', Milkdrop: 'milkdrop' };

interface Comparison {
  /** Share of pixels that differ between the two pictures (any channel by more than 8 of 255). */
  changed: number;
  /** Share of pixels of the second picture that are not (nearly) black. */
  lit: number;
}

/**
 * What a person sees of `element`, twice, `gapMs` apart: two screenshots of it (whatever draws it, 2D canvas or
 * WebGL), decoded and compared in the page.
 */
async function compareSamples(page: Page, element: Locator, gapMs: number): Promise<Comparison> {
  const first = await element.screenshot();
  await page.waitForTimeout(gapMs);
  return comparePictures(page, first, await element.screenshot());
}

/** Two screenshots (PNG), decoded and compared in the page. */
function comparePictures(page: Page, first: Buffer, second: Buffer): Promise<Comparison> {
  return page.evaluate(
    async ([a, b]) => {
      const decode = async (base64: string) => {
        const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const ctx = canvas.getContext('2d')!;
        ctx.drawImage(bitmap, 0, 0);
        return ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
      };
      const [pa, pb] = [await decode(a!), await decode(b!)];
      let changed = 0;
      let lit = 0;
      const pixels = Math.min(pa.length, pb.length) / 4;
      for (let i = 0; i < pixels * 4; i += 4) {
        if (Math.abs(pa[i]! - pb[i]!) > 8 || Math.abs(pa[i + 1]! - pb[i + 1]!) > 8 || Math.abs(pa[i + 2]! - pb[i + 2]!) > 8) changed++;
        if (pb[i]! + pb[i + 1]! + pb[i + 2]! > 60) lit++;
      }
      return { changed: changed / pixels, lit: lit / pixels };
    },
    [first.toString('base64'), second.toString('base64')],
  );
}

/**
 * Whether the picture moves: a first sample, then more after SAMPLE_WAITS_MS, each compared with the first,
 * until one differs (a steady tone's spectrum changes only with the beat's flash and the noise hits, so samples
 * at the same moment of the beat look alike), at least three and at most MOVING_SAMPLES; the largest change and
 * the least lit of the later samples.
 */
async function movement(page: Page, element: Locator): Promise<Comparison> {
  const first = await element.screenshot();
  const samples: Comparison[] = [];
  while (samples.length < 3 || (samples.length < MOVING_SAMPLES && Math.max(...samples.map((sample) => sample.changed)) <= 0.002)) {
    await page.waitForTimeout(SAMPLE_WAITS_MS[samples.length % SAMPLE_WAITS_MS.length]!);
    samples.push(await comparePictures(page, first, await element.screenshot()));
  }
  return { changed: Math.max(...samples.map((sample) => sample.changed)), lit: Math.min(...samples.map((sample) => sample.lit)) };
}

/**
 * An output page's words over its picture change it without the picture moving: sampling starts once the
 * 'double-click' hint has faded (3 s after the page opened), and the 'waiting' notice of a stream that stopped
 * is ruled out by the frames drawn meanwhile and the page still not waiting after.
 */
async function hintGone(output: Page): Promise<void> {
  await output.getByText('Double-click for full screen').waitFor({ state: 'detached', timeout: 10_000 });
}

/** How many streamed frames the output page has drawn so far. */
async function framesDrawn(output: Page): Promise<number> {
  return Number((await output.getByTestId('visualizer-stage').getAttribute('data-frames')) ?? 0);
}

/** Samples until two in a row are the same picture (at most `timeoutMs`); the last comparison. */
async function untilStill(page: Page, element: Locator, timeoutMs: number): Promise<Comparison> {
  let last: Comparison = { changed: 1, lit: 0 };
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline && last.changed > 0; ) last = await compareSamples(page, element, 400);
  return last;
}

describe('the live visualizer in Chromium', () => {
  const chromium = chromiumPerTest({ width: 1400, height: 1000 });

  it('moves in every mode while the stems play, stands still when paused, and mirrors itself into the output window and an output link', async () => {
    const page = chromium.page;
    await signInThroughKeycloak(page);
    await page.goto(`${BASE_URL}/app`);
    await page.getByTestId('upload-panel').waitFor();
    await uploadThroughChooser(page, makeClip('e2e-visualizer-60s.mp3', 60, { codecArgs: ['-b:a', '128k'] }));
    await waitForStems(page, 120_000);
    // The whole stems, not the first seconds only (playback would wait, silent, at their end).
    await page.getByTestId('separation-fast').waitFor({ state: 'detached', timeout: 180_000 });
    const transport = page.locator('header');

    await page.getByTestId('sidebar').getByRole('button', { name: 'Video & Visuals' }).click();
    const panel = page.getByTestId('visualizer-panel');
    const screen = page.getByTestId('visualizer-screen');
    await panel.waitFor();
    await expectInViewport(page, 'visualizer-screen');
    // Before anything plays the picture is still.
    expect((await untilStill(page, screen, 5000)).changed).toBe(0);
    expect(await page.getByTestId('visualizer-bpm').innerText()).toMatch(/^120 BPM\s+listening for a beat$/);

    await transport.getByRole('button', { name: 'Play', exact: true }).click();
    // While the stems play, their beat grid drives the pulses and the tempo shown.
    await page.locator('[data-testid="visualizer-bpm"][data-source="grid"]').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('visualizer-bpm').innerText()).toMatch(/^\d{2,3} BPM\s+on the playing track’s beat grid$/);

    const modes = panel.getByRole('group', { name: 'Visualizer mode' });
    for (const label of MODES) {
      const button = modes.getByRole('button', { name: label, exact: true });
      expect(await button.isDisabled()).toBe(false);
      await button.click();
      expect(await button.getAttribute('aria-pressed')).toBe('true');
      await page.locator(`[data-testid="visualizer-stage"][data-mode="${MODE_IDS[label]}"][data-drawing="true"]`).waitFor();
      // A WebGL mode loads its library first; then its own canvas is the one shown.
      await page.waitForFunction(
        () => [...document.querySelectorAll('[data-testid="visualizer-stage"] canvas')].filter((c) => (c as HTMLElement).style.display !== 'none').length === 1,
        undefined,
        { timeout: 30_000 },
      );
      expect(await page.getByTestId('visualizer-problem').count()).toBe(0);
      await expectInViewport(page, 'visualizer-screen');
      await page.waitForTimeout(500);
      const moving = await movement(page, screen);
      expect({ mode: label, moves: moving.changed > 0.002, drawsSomething: moving.lit > 0.01 }).toEqual({ mode: label, moves: true, drawsSomething: true });
    }

    // Paused: the sound stops, the picture settles and then stays as it is (in a 2D and in a WebGL mode).
    await transport.getByRole('button', { name: 'Pause', exact: true }).click();
    expect((await untilStill(page, screen, 8000)).changed).toBe(0);
    await modes.getByRole('button', { name: 'Particles', exact: true }).click();
    expect((await untilStill(page, screen, 8000)).changed).toBe(0);

    // The output window: opened from the panel, in the same browser; it draws what the studio streams.
    const [output] = await Promise.all([chromium.context.waitForEvent('page'), panel.getByRole('button', { name: 'Open output window' }).click()]);
    await output.waitForLoadState();
    expect(new URL(output.url()).pathname).toBe('/output');
    await output.setViewportSize({ width: 960, height: 540 });
    const outputStage = output.getByTestId('output-page');
    await modes.getByRole('button', { name: 'Spectrum', exact: true }).click();
    await transport.getByRole('button', { name: 'Play', exact: true }).click();
    await output.locator('[data-testid="output-page"][data-waiting="false"]').waitFor({ timeout: 10_000 });
    await output.locator('[data-testid="visualizer-stage"][data-mode="spectrum"]').waitFor();
    await output.waitForTimeout(500);
    await hintGone(output);
    const framesBefore = await framesDrawn(output);
    const mirrored = await movement(output, outputStage);
    // The stream keeps coming (30 a second at the least) whether or not the studio's tab counts as visible now.
    const streamed = {
      framesArrive: (await framesDrawn(output)) - framesBefore > 20,
      waiting: await outputStage.getAttribute('data-waiting'),
      studioTab: await page.evaluate(() => document.visibilityState),
    };
    expect({ moves: mirrored.changed > 0.002, lit: mirrored.lit > 0.01, ...streamed }).toEqual({
      moves: true,
      lit: true,
      framesArrive: true,
      waiting: 'false',
      studioTab: streamed.studioTab,
    });
    // It follows the studio's mode.
    await modes.getByRole('button', { name: 'Circular', exact: true }).click();
    await output.locator('[data-testid="visualizer-stage"][data-mode="circular"]').waitFor();

    // The output link: a second browser that is not signed in (as OBS's Browser Source is) draws the same picture
    // through the gateway, and the card counts it; a link no studio has registered says so in plain words.
    const card = page.getByTestId('browser-output');
    const address = await card.getByTestId('output-link').inputValue();
    expect(address).toMatch(new RegExp(`^${BASE_URL}/output\\?key=[A-Za-z0-9_-]{22}$`));
    const obsBrowser = await chromium.browser.newContext({ viewport: { width: 960, height: 540 } });
    try {
      const obs = await obsBrowser.newPage();
      watchPage(obs);
      await obs.goto(address);
      const obsStage = obs.getByTestId('output-page');
      await obs.locator('[data-testid="output-page"][data-waiting="false"]').waitFor({ timeout: 15_000 });
      await obs.locator('[data-testid="visualizer-stage"][data-mode="circular"]').waitFor();
      await obs.waitForTimeout(500);
      await hintGone(obs);
      const remoteFramesBefore = await framesDrawn(obs);
      const remote = await movement(obs, obsStage);
      const remoteStream = { framesArrive: (await framesDrawn(obs)) - remoteFramesBefore > 10, waiting: await obsStage.getAttribute('data-waiting') };
      expect({ moves: remote.changed > 0.002, lit: remote.lit > 0.01, ...remoteStream }).toEqual({ moves: true, lit: true, framesArrive: true, waiting: 'false' });
      await card.locator('[data-testid="browser-output-status"][data-links="1"]').waitFor({ timeout: 10_000 });
      expect(await card.getByTestId('browser-output-status').innerText()).toBe('Live: 1 output window open · 1 OBS source or other browser');
      await expectInViewport(page, 'browser-output-status');

      const stranger = await obsBrowser.newPage();
      watchPage(stranger);
      await stranger.goto(`${BASE_URL}/output?key=AAAAAAAAAAAAAAAAAAAAAA`);
      await stranger.getByTestId('output-inactive').waitFor({ timeout: 10_000 });
      expect(await stranger.getByTestId('output-inactive').innerText()).toBe('This output link is not active: open the studio’s Video & Visuals');
      await obs.close();
      await card.locator('[data-testid="browser-output-status"][data-links="0"]').waitFor({ timeout: 10_000 });
      expect(await card.getByTestId('browser-output-status').innerText()).toBe('Live: 1 output window open');
    } finally {
      await obsBrowser.close();
    }

    // Leaving the section stops the panel's drawing; the output window keeps being fed while it is open.
    await page.getByTestId('sidebar').getByRole('button', { name: 'Upload & Split' }).click();
    await page.getByTestId('visualizer-panel').waitFor({ state: 'detached' });
    const fedFramesBefore = await framesDrawn(output);
    const stillFed = await movement(output, outputStage);
    const fed = { framesArrive: (await framesDrawn(output)) - fedFramesBefore > 20, waiting: await outputStage.getAttribute('data-waiting') };
    expect({ moves: stillFed.changed > 0.002, ...fed }).toEqual({ moves: true, framesArrive: true, waiting: 'false' });
    await transport.getByRole('button', { name: 'Pause', exact: true }).click();
    await output.close();
  });
});
