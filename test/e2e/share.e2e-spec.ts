import { SHARE_LINK_GONE_MESSAGE } from '@stemdeck/proto';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumPerTest, expectReadableToast, signInThroughKeycloak } from '../support/browser';
import { BASE_URL } from '../support/env';
import { makeClip } from '../support/media';
import { expectInViewport, uploadThroughChooser, waitForStems } from '../support/studio';

jest.setTimeout(300_000);

const SONG = 'e2e-share-15s';

/** Non-blank pixels on the shared page's waveform canvas (the drawn bars). */
const drawnPixels = (page: Page) =>
  page.getByTestId('shared-waveform').locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
    const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let drawn = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) drawn++;
    return drawn;
  });

const position = async (page: Page) => Number(await page.getByTestId('shared-position').getAttribute('data-seconds'));

describe('Share in Chromium: a link a friend plays without an account', () => {
  const chromium = chromiumPerTest({ width: 1400, height: 1000 });
  let page: Page;
  let friend: BrowserContext | null = null;

  beforeEach(async () => {
    page = chromium.page;
    await chromium.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
    await signInThroughKeycloak(page);
    await page.goto(`${BASE_URL}/app`);
    await page.getByTestId('upload-panel').waitFor();
  });
  afterEach(async () => {
    await friend?.close();
    friend = null;
  });

  it('creates a link, a signed-out browser opens and plays it with the saved mix, and after Revoke the link is gone', async () => {
    const uploaded = page.waitForResponse((response) => response.url().endsWith('/api/upload') && response.request().method() === 'POST');
    await uploadThroughChooser(page, makeClip(`${SONG}.wav`, 15));
    const projectId = ((await (await uploaded).json()) as { project: { id: string } }).project.id;
    await waitForStems(page, 120_000);
    await page.getByTestId('separation-fast').waitFor({ state: 'detached', timeout: 120_000 });

    // The owner's mix: bass muted (saved before the link is opened).
    await page.getByRole('button', { name: 'Mute bass' }).click();
    for (let tries = 0; ; tries++) {
      const stems = (await (await page.request.get(`${BASE_URL}/api/projects/${projectId}/stems`)).json()) as Array<{ type: string; muted: boolean }>;
      if (stems.find((stem) => stem.type === 'bass')?.muted) break;
      if (tries > 50) throw new Error('the bass mute was not saved');
      await page.waitForTimeout(100);
    }

    await page.getByRole('button', { name: 'Export & Share' }).click();
    await page.getByTestId('share-links-empty').waitFor();
    await page.getByLabel('Link expires').selectOption({ label: '7 days' });
    await page.getByTestId('create-share-link').click();
    await page.getByTestId('new-share-link').waitFor();
    await expectInViewport(page, 'new-share-link');
    const url = await page.getByTestId('share-url').inputValue();
    expect(url).toMatch(new RegExp(`^${BASE_URL}/s/[A-Za-z0-9_-]{20,}$`));
    expect(await page.getByTestId('share-url-note').innerText()).toMatch(/shown only once/);
    await page.getByTestId('copy-share-link').click();
    await expectReadableToast(page, 'Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    const row = page.getByTestId('share-link');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.getAttribute('data-status')).toBe('active');
    expect(await row.innerText()).toMatch(/Active/);

    // A friend, signed out, in a browser of their own.
    friend = await chromium.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const guest = await friend.newPage();
    await guest.goto(url);
    await guest.getByTestId('shared-title').waitFor();
    expect(guest.url()).toBe(url);
    expect(await guest.getByTestId('shared-title').innerText()).toBe(SONG);
    // The project's own tempo, key and analysis, as the owner's project stores them.
    const project = (await (await page.request.get(`${BASE_URL}/api/projects/${projectId}`)).json()) as { bpm: number; key: string };
    const analysis = (await (await page.request.get(`${BASE_URL}/api/projects/${projectId}/analysis`)).json()) as { spotifyFeatures: { tempo: number; energy: number }; loudnessLufs: number };
    expect(await guest.getByTestId('shared-summary').innerText()).toBe(`0:15 · ${Math.round(project.bpm)} BPM · ${project.key}`);
    expect(await guest.getByTestId('analysis-tempo-value').innerText()).toBe(`${analysis.spotifyFeatures.tempo.toFixed(1)} BPM`);
    expect(await guest.getByTestId('analysis-energy-value').innerText()).toBe(analysis.spotifyFeatures.energy.toFixed(2));
    expect(await guest.getByTestId('analysis-loudness-value').innerText()).toBe(`${analysis.loudnessLufs.toFixed(1)} LUFS`);
    expect(await guest.getByTestId('shared-stem-bass').innerText()).toContain('Muted');
    expect(await guest.getByTestId('shared-stem-vocals').innerText()).toContain('0.0 dB');
    await guest.locator('[data-testid="shared-waveform"][data-drawn="true"]').waitFor({ timeout: 60_000 });
    expect(await drawnPixels(guest)).toBeGreaterThan(10_000);

    await guest.getByRole('button', { name: 'Play' }).click();
    await guest.waitForFunction(() => Number(document.querySelector('[data-testid="shared-position"]')?.getAttribute('data-seconds')) > 1, undefined, { timeout: 15_000 });
    expect(await guest.getByTestId('shared-position').getAttribute('data-audio')).toBe('running');
    expect(await guest.getByTestId('shared-position').getAttribute('data-status')).toBe('playing');
    // The owner's mix is what plays: the muted bass is silent after its gain, the other stems are heard.
    await guest.waitForTimeout(400);
    const levels = await Promise.all(['vocals', 'drums', 'bass', 'other'].map(async (type) => Number(await guest.getByTestId(`shared-stem-${type}`).getAttribute('data-level'))));
    expect(levels[2]).toBeLessThan(0.001);
    expect(Math.max(levels[0]!, levels[1]!, levels[3]!)).toBeGreaterThan(0.01);
    await guest.getByRole('button', { name: 'Pause' }).click();
    const held = await position(guest);
    await guest.waitForTimeout(600);
    expect(await position(guest)).toBe(held);

    // The owner revokes it: the list says so, and the friend's reload finds the link gone.
    await page.getByTestId('revoke-share-link').click();
    await expectReadableToast(page, 'Link revoked');
    await page.locator('[data-testid="share-link"][data-status="revoked"]').waitFor();
    expect(await page.getByTestId('revoke-share-link').count()).toBe(0);

    await guest.reload();
    await guest.getByTestId('share-gone').waitFor();
    expect(await guest.getByRole('heading', { level: 1 }).innerText()).toBe(SHARE_LINK_GONE_MESSAGE);
    expect(await guest.getByTestId('shared-play').count()).toBe(0);

    // A token never issued reads the same.
    await guest.goto(`${BASE_URL}/s/not-a-real-token-${Date.now()}`);
    await guest.getByTestId('share-gone').waitFor();
    expect(await guest.getByRole('heading', { level: 1 }).innerText()).toBe(SHARE_LINK_GONE_MESSAGE);
  });
});
