import type { Page } from 'playwright-core';
import { chromiumPerTest, expectReadableToast, signInThroughKeycloak } from '../support/browser';
import { BASE_URL } from '../support/env';
import { makeClip } from '../support/media';

jest.setTimeout(120_000);

/** A real PNG signature: the panel must refuse it by what it is, whatever the test claims. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5e1b1a00000000049454e44ae426082', 'hex');

describe('toasts a person can read', () => {
  const chromium = chromiumPerTest({ width: 1440, height: 900 });
  let page: Page;
  beforeEach(() => void (page = chromium.page));

  it.each([
    ['desktop', 1440, 900],
    ['phone', 390, 844],
  ])('on a %s (%ix%i): an error and a success toast lie inside the window with their titles readable', async (_name, width, height) => {
    await signInThroughKeycloak(page);
    await page.setViewportSize({ width, height });
    await page.goto(`${BASE_URL}/app`);
    const panel = page.getByTestId('upload-panel');
    await panel.waitFor();

    await panel.locator('input[type="file"]').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
    await expectReadableToast(page, 'Invalid file type');

    await panel.locator('input[type="file"]').setInputFiles(makeClip('toast-song-4s.wav', 4));
    await page.getByRole('button', { name: 'Split into Stems' }).click();
    await expectReadableToast(page, 'Audio uploaded successfully');
    // Still one at a time: the success replaced the error.
    expect(await page.getByTestId('toast').count()).toBe(1);
  });

  it('does not keep different news waiting five seconds a piece: the next toast comes 2.5 s after the first appeared', async () => {
    await signInThroughKeycloak(page);
    await page.goto(`${BASE_URL}/app`);
    const input = page.getByTestId('upload-panel').locator('input[type="file"]');
    await input.waitFor({ state: 'attached' });
    const description = (text: string) => page.getByTestId('toast').locator('[data-part="description"]', { hasText: text });

    await input.setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
    await description('cover.png is not a valid audio or video file').waitFor();
    const firstAppeared = Date.now();
    // A different error while the first is on screen: it waits, but not the first toast's whole five seconds.
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not audio') });
    await description('notes.txt is not a valid audio or video file').waitFor({ timeout: 10_000 });
    const waited = Date.now() - firstAppeared;
    expect({ waited, inTime: waited < 4_000 }).toEqual({ waited, inTime: true });
    await expectReadableToast(page, 'Invalid file type');
  });
});
