import { statSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { chromiumPerTest, expectReadableToast, signInThroughKeycloak } from '../support/browser';
import { BASE_URL } from '../support/env';
import { makeClip } from '../support/media';
import { expectInViewport, jobStatesSeen, recordJobStates, uploadThroughChooser, waitForStems } from '../support/studio';

jest.setTimeout(180_000);

describe('AI Mastering in Chromium', () => {
  const chromium = chromiumPerTest({ width: 1400, height: 1000 });
  let page: Page;

  beforeEach(async () => {
    page = chromium.page;
    await signInThroughKeycloak(page);
    await page.goto(`${BASE_URL}/app`);
    await page.getByTestId('upload-panel').waitFor();
  });

  it('masters the full mix with real progress, shows before/after, plays the A/B and downloads the master', async () => {
    await page.getByRole('button', { name: 'AI Mastering' }).click();
    await page.getByText('No project selected').waitFor();
    expect(await page.getByTestId('start-mastering').isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Upload & Split' }).click();
    await uploadThroughChooser(page, makeClip('e2e-master-40s.wav', 40));
    await waitForStems(page, 120_000);
    // Decoded stems may be the first seconds only: mastering takes the whole stems, once the separation is done.
    await page.getByTestId('separation-fast').waitFor({ state: 'detached', timeout: 120_000 });

    await page.getByRole('button', { name: 'AI Mastering' }).click();
    const start = page.getByTestId('start-mastering');
    await start.waitFor();
    expect(await start.innerText()).toBe('Start Mastering');
    expect(await page.getByTestId('mastering-intensity-name').innerText()).toBe('Medium');
    expect(await page.getByLabel('Master type').inputValue()).toBe('full-mix');
    await recordJobStates(page, 'mastering');

    await start.click();
    await page
      .getByText('Mastering complete!', { exact: true })
      .waitFor({ timeout: 90_000 })
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\nseen: ${JSON.stringify(await jobStatesSeen(page))}\npanel: ${await page.getByTestId('mastering-panel').innerText()}\ntoasts: ${await page.getByTestId('toast').allInnerTexts()}`);
      });
    await expectReadableToast(page, 'Mastering complete!');
    const seen = await jobStatesSeen(page);
    expect(seen.labels[0]).toBe('Start Mastering');
    expect(seen.labels).toContain('Processing...');
    expect(seen.labels.indexOf('Starting...')).toBeGreaterThan(0);
    expect(seen.labels.indexOf('Starting...')).toBeLessThan(seen.labels.indexOf('Processing...'));
    expect(seen.labels.at(-1)).toBe('Start Mastering');
    // The bar moved: more than one value, rising.
    expect(seen.progress.length).toBeGreaterThan(1);
    expect(Math.max(...seen.progress)).toBeGreaterThan(seen.progress[0]!);
    expect(seen.progress).toEqual([...seen.progress].sort((a, b) => a - b));

    await expectInViewport(page, 'mastering-result');
    for (const when of ['before', 'after']) {
      const row = await page.getByTestId(`figures-${when}`).innerText();
      expect(row).toMatch(/-?\d+\.\d LUFS\s+\d+\.\d LU\s+-?\d+\.\d dBTP/);
    }
    expect(await page.getByTestId('mastering-provider').innerText()).toBe('Mastered locally');
    await page.getByTestId('mastering-jobs').getByText('completed').first().waitFor();

    // A/B: the master plays (the clock advances and the output analyser hears it), then the original.
    await page.getByRole('button', { name: 'Play comparison' }).click();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="ab-position"]')?.getAttribute('data-seconds')) > 1, undefined, { timeout: 30_000 });
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="ab-position"]')?.getAttribute('data-level')) > 0.001, undefined, { timeout: 5_000 });
    const switchedAt = Number(await page.getByTestId('ab-position').getAttribute('data-seconds'));
    await page.getByRole('button', { name: 'Original', exact: true }).click();
    expect(await page.getByTestId('ab-player').getAttribute('data-side')).toBe('original');
    // A level read once the clock has moved on from the switch, so not the master's last reading.
    await page.waitForFunction(
      (switchedAt) => {
        const position = document.querySelector('[data-testid="ab-position"]');
        return Number(position?.getAttribute('data-seconds')) > switchedAt + 0.3 && Number(position?.getAttribute('data-level')) > 0.001;
      },
      switchedAt,
      { timeout: 5_000 },
    );
    await page.getByRole('button', { name: 'Pause comparison' }).click();

    const download = page.waitForEvent('download');
    await page.getByTestId('download-master').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.(wav|mp3|flac)$/);
    const path = await file.path();
    expect(statSync(path).size).toBeGreaterThan(10_000);

    // Cancel: a per-stem master (the longest kind) stopped while it runs reads Cancelled and frees Start.
    await page.getByLabel('Master type').selectOption('per-stem');
    await start.click();
    const cancel = page.getByTestId('cancel-mastering');
    await cancel.waitFor({ timeout: 30_000 });
    await cancel.click();
    await expectReadableToast(page, 'Mastering cancelled');
    expect(await page.getByTestId('mastering-error').innerText()).toBe('Cancelled');
    expect(await start.innerText()).toBe('Start Mastering');
    expect(await start.isDisabled()).toBe(false);
    expect(await page.getByTestId('mastering-result').count()).toBe(0);
    const cancelled = page.locator('[data-testid="mastering-job"][data-status="failed"]').first();
    await cancelled.waitFor();
    expect(await cancelled.innerText()).toMatch(/Master[\s\S]*Cancelled/);
    expect(await page.locator('[data-testid="mastering-job"][data-status="completed"]').count()).toBe(1);
  });
});
