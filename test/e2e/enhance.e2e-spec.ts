import type { Page } from 'playwright-core';
import { chromiumPerTest, expectReadableToast, signInThroughKeycloak } from '../support/browser';
import { BASE_URL } from '../support/env';
import { makeClip } from '../support/media';
import { expectInViewport, jobStatesSeen, recordJobStates, uploadThroughChooser, waitForStems } from '../support/studio';

jest.setTimeout(240_000);

/** Seconds the studio's timeline shows (m:ss). */
async function timelineSeconds(page: Page): Promise<number> {
  const [minutes, seconds] = (await page.getByTestId('timeline-current').innerText()).split(':').map(Number);
  return minutes! * 60 + seconds!;
}

/** Waits until the timeline has moved on from `from` by at least `by` seconds (the playback clock runs). */
async function clockMovesOn(page: Page, by = 1): Promise<number> {
  const from = await timelineSeconds(page);
  await page.waitForFunction(
    ([start, step]) => {
      const [m, s] = (document.querySelector('[data-testid="timeline-current"]')?.textContent ?? '0:00').split(':').map(Number);
      return m! * 60 + s! >= start! + step!;
    },
    [from, by],
    { timeout: 10_000 },
  );
  return timelineSeconds(page);
}

const vocalsSource = (page: Page) => page.getByTestId('stem-vocals').getAttribute('data-source');

describe('Enhancement in Chromium', () => {
  const chromium = chromiumPerTest({ width: 1400, height: 1000 });
  let page: Page;

  beforeEach(async () => {
    page = chromium.page;
    await signInThroughKeycloak(page);
    await page.goto(`${BASE_URL}/app`);
    await page.getByTestId('upload-panel').waitFor();
  });

  it('enhances the vocals with real progress, shows their figures, and the mixer switches between enhanced and original while playing', async () => {
    await page.getByRole('button', { name: 'Upload & Split' }).click();
    await uploadThroughChooser(page, makeClip('e2e-enhance-30s.wav', 30));
    await waitForStems(page, 120_000);
    // Enhancement takes the whole stems, once the separation is done.
    await page.getByTestId('separation-fast').waitFor({ state: 'detached', timeout: 120_000 });
    // No enhanced version yet: no switch.
    expect(await page.getByTestId('version-vocals').count()).toBe(0);
    const originalSource = await vocalsSource(page);
    expect(originalSource).toMatch(/\/api\/stems\/.+\/audio$/);

    await page.getByRole('button', { name: 'AI Mastering' }).click();
    const start = page.getByTestId('start-enhance');
    await start.waitFor();
    expect(await start.innerText()).toBe('Start Enhancement');
    expect(await start.isDisabled()).toBe(false);
    // Noise reduction on the vocals, as the panel offers by default.
    expect(await page.getByRole('button', { name: 'Noise reduction', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('button', { name: 'Vocals', exact: true }).getAttribute('aria-pressed')).toBe('true');
    for (const name of ['Loudness normalization', 'Speech enhancement', 'Drums', 'Bass', 'Other']) expect(await page.getByRole('button', { name, exact: true }).getAttribute('aria-pressed')).toBe('false');
    await recordJobStates(page, 'enhance');

    await start.click();
    await page
      .getByText('Enhancement complete!', { exact: true })
      .waitFor({ timeout: 120_000 })
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\nseen: ${JSON.stringify(await jobStatesSeen(page))}\npanel: ${await page.getByTestId('mastering-panel').innerText()}\ntoasts: ${await page.getByTestId('toast').allInnerTexts()}`);
      });
    await expectReadableToast(page, 'Enhancement complete!');
    const seen = await jobStatesSeen(page);
    expect(seen.labels[0]).toBe('Start Enhancement');
    expect(seen.labels.indexOf('Starting...')).toBeGreaterThan(0);
    expect(seen.labels.indexOf('Starting...')).toBeLessThan(seen.labels.indexOf('Processing...'));
    expect(seen.labels.at(-1)).toBe('Start Enhancement');
    // The bar moved: more than one value, rising.
    expect(seen.progress.length).toBeGreaterThan(1);
    expect(Math.max(...seen.progress)).toBeGreaterThan(seen.progress[0]!);
    expect(seen.progress).toEqual([...seen.progress].sort((a, b) => a - b));

    await expectInViewport(page, 'enhance-result');
    for (const when of ['before', 'after']) {
      expect(await page.getByTestId(`enhance-figures-vocals-${when}`).innerText()).toMatch(/-?\d+\.\d LUFS\s+\d+\.\d LU\s+-?\d+\.\d dBTP/);
    }
    // Only the vocals were chosen.
    expect(await page.getByTestId('enhance-figures-drums-before').count()).toBe(0);
    expect(await page.getByTestId('enhance-provider').innerText()).toBe('Enhanced locally');
    expect(await page.getByTestId('enhance-mixer-note').innerText()).toMatch(/mixer now plays the enhanced stem/);
    expect(await page.getByTestId('download-enhanced-vocals').getAttribute('href')).toBeTruthy();
    const jobRow = page.locator('[data-testid="mastering-job"][data-type="enhance"]').first();
    await jobRow.waitFor();
    expect(await jobRow.getAttribute('data-status')).toBe('completed');
    expect(await jobRow.innerText()).toMatch(/Enhancement[\s\S]*Local engine[\s\S]*completed/);

    // The finished job switched the vocals to their enhanced version: the mixer shows it, the player holds it.
    await page.getByRole('button', { name: 'Upload & Split' }).click();
    const versions = page.getByTestId('version-vocals');
    await page.locator('[data-testid="version-vocals"][data-version="enhanced"]').waitFor({ timeout: 10_000 });
    expect(await versions.getByRole('button', { name: 'Enhanced', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await page.waitForFunction(() => document.querySelector('[data-testid="stem-vocals"]')?.getAttribute('data-source')?.includes('version=enhanced'), undefined, { timeout: 15_000 });
    const enhancedSource = await vocalsSource(page);
    expect(await page.getByTestId('version-drums').count()).toBe(0);

    // Playing: Original and back swap the vocals' recording, the clock runs on and the vocals still sound.
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await clockMovesOn(page, 1);
    await versions.getByRole('button', { name: 'Original', exact: true }).click();
    await page.waitForFunction((source) => document.querySelector('[data-testid="stem-vocals"]')?.getAttribute('data-source') === source, originalSource, { timeout: 15_000 });
    expect(await versions.getAttribute('data-version')).toBe('original');
    expect(await page.getByTestId('playback-state').innerText()).toMatch(/playing/i);
    const afterOriginal = await clockMovesOn(page, 1);
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="meter-vocals"]')?.getAttribute('data-level')) > 0, undefined, { timeout: 5_000 });

    await versions.getByRole('button', { name: 'Enhanced', exact: true }).click();
    await page.waitForFunction((source) => document.querySelector('[data-testid="stem-vocals"]')?.getAttribute('data-source') === source, enhancedSource, { timeout: 15_000 });
    expect(await versions.getAttribute('data-version')).toBe('enhanced');
    expect(await clockMovesOn(page, 1)).toBeGreaterThan(afterOriginal);
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="meter-vocals"]')?.getAttribute('data-level')) > 0, undefined, { timeout: 5_000 });
    await page.getByRole('button', { name: 'Pause', exact: true }).click();

    // The switch was stored: a reload plays the enhanced vocals again.
    await page.reload();
    await waitForStems(page, 60_000);
    await page.locator('[data-testid="version-vocals"][data-version="enhanced"]').waitFor({ timeout: 10_000 });
  });
});
