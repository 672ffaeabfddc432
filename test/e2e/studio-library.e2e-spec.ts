import { projectPrefix } from '@stemdeck/proto';
import type { Page } from 'playwright-core';
import { chromiumPerTest, signInThroughKeycloak } from '../support/browser';
import { BASE_URL } from '../support/env';
import { makeClip, objectKeys } from '../support/media';
import { STEM_TYPES } from '@stemdeck/proto/vocabulary';
import { uploadThroughChooser, waitForStems } from '../support/studio';

jest.setTimeout(180_000);

const VIEWPORT = { width: 1440, height: 900 };

async function openStudio(page: Page): Promise<void> {
  await signInThroughKeycloak(page);
  await page.goto(`${BASE_URL}/app`);
  await page.getByTestId('upload-panel').waitFor();
}

const libraryRow = (page: Page, projectId: string) => page.locator(`[data-testid="library-project"][data-project-id="${projectId}"]`);

describe('project library in Chromium', () => {
  const chromium = chromiumPerTest(VIEWPORT);

  it('keeps uploads: the upload area folds away, a new browser reopens the project, renames it and deletes it with its stored files', async () => {
    const page = chromium.page;
    await openStudio(page);
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/upload'));
    await uploadThroughChooser(page, makeClip('e2e-library-20s.mp3', 20, { codecArgs: ['-b:a', '128k'] }));
    const projectId = ((await (await answer).json()) as { project: { id: string } }).project.id;
    await waitForStems(page);

    // With a song open the drop zone is a one-line bar and the meters are on screen at 1440x900.
    await page.locator('[data-testid="upload-panel"][data-compact="true"]').waitFor();
    await page.getByRole('button', { name: 'Upload another' }).waitFor();
    expect(await page.getByRole('button', { name: 'Choose File' }).count()).toBe(0);
    for (const type of STEM_TYPES) {
      const meter = (await page.getByTestId(`meter-${type}`).boundingBox())!;
      expect(meter.y).toBeGreaterThanOrEqual(0);
      expect(meter.y + meter.height).toBeLessThanOrEqual(VIEWPORT.height);
    }

    // "Upload another" chooses a file: the panel opens for it; removing the file folds it again.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload another' }).click();
    await (await chooser).setFiles(makeClip('e2e-library-20s.mp3', 20));
    await page.getByTestId('selected-file').getByText('e2e-library-20s.mp3').waitFor();
    await page.getByRole('button', { name: 'Split into Stems' }).waitFor();
    await page.getByRole('button', { name: 'Remove file' }).click();
    await page.locator('[data-testid="upload-panel"][data-compact="true"]').waitFor();

    // The library lists it: name from the file, duration, tempo, key, date, stem status.
    const row = libraryRow(page, projectId);
    await row.getByTestId('library-name').getByText('e2e-library-20s', { exact: true }).waitFor();
    await row.getByTestId('library-status').getByText('4 stems · fast engine').waitFor();
    expect(await row.getByTestId('library-details').innerText()).toMatch(/^0:20 · \d+ BPM · [A-G]#? (major|minor) · .+/);

    // A new browser (nothing remembered locally) signs in and reopens it from the list.
    const otherBrowser = await chromium.browser.newContext({ viewport: VIEWPORT });
    try {
      const other = await otherBrowser.newPage();
      await openStudio(other);
      expect(await other.getByTestId('current-file').innerText()).toBe('No file loaded');
      const otherRow = libraryRow(other, projectId);
      await otherRow.getByRole('button', { name: 'Open e2e-library-20s' }).click();
      await waitForStems(other);
      expect(await other.getByTestId('current-file').innerText()).toBe('e2e-library-20s.mp3');
      expect(await other.getByTestId('quality-vocals').innerText()).toBe('engine: fast');
      expect(await other.getByTestId('engine-unavailable-quality').innerText()).toBe('High-quality engine not installed on this server');

      // The seek slider is reached with Tab and moved with the slider keys; its value reads as m:ss.
      await other.getByRole('button', { name: 'Upload another' }).focus();
      const slider = other.getByRole('slider', { name: 'Seek' });
      for (let press = 0; press < 5 && !(await slider.evaluate((el) => el === document.activeElement)); press++) await other.keyboard.press('Tab');
      expect(await slider.evaluate((el) => el === document.activeElement)).toBe(true);
      const valueText = () => slider.getAttribute('aria-valuetext');
      await other.keyboard.press('End');
      await other.waitForFunction(() => document.querySelector('[role="slider"][aria-label="Seek"]')?.getAttribute('aria-valuetext') === '0:20 of 0:20');
      expect(await slider.getAttribute('aria-valuenow')).toBe('20');
      await other.keyboard.press('Home');
      await other.keyboard.press('ArrowRight');
      await other.keyboard.press('ArrowRight');
      await other.waitForFunction(() => document.querySelector('[role="slider"][aria-label="Seek"]')?.getAttribute('aria-valuetext') === '0:10 of 0:20');
      await other.keyboard.press('ArrowLeft');
      await other.waitForFunction(() => document.querySelector('[role="slider"][aria-label="Seek"]')?.getAttribute('aria-valuetext') === '0:05 of 0:20');
      await other.keyboard.press('PageUp');
      await other.waitForFunction(() => document.querySelector('[role="slider"][aria-label="Seek"]')?.getAttribute('aria-valuetext') === '0:20 of 0:20');
      await other.keyboard.press('PageDown');
      await other.waitForFunction(() => document.querySelector('[role="slider"][aria-label="Seek"]')?.getAttribute('aria-valuetext') === '0:00 of 0:20');
      expect(await valueText()).toBe('0:00 of 0:20');
      expect(await other.getByTestId('timeline-current').innerText()).toBe('0:00');

      // Rename: an empty name is refused with a plain message; a trimmed one is kept.
      await otherRow.getByRole('button', { name: 'Rename e2e-library-20s' }).click();
      const nameInput = otherRow.getByRole('textbox', { name: 'New name for e2e-library-20s' });
      await nameInput.fill('   ');
      await otherRow.getByRole('button', { name: 'Save' }).click();
      await otherRow.getByRole('alert').getByText('The name cannot be empty').waitFor();
      await nameInput.fill('  Night Drive  ');
      await otherRow.getByRole('button', { name: 'Save' }).click();
      await otherRow.getByTestId('library-name').getByText('Night Drive', { exact: true }).waitFor();

      // Delete: the row goes, the open project closes here and in the first browser, storage holds nothing.
      await otherRow.getByRole('button', { name: 'Delete Night Drive' }).click();
      await otherRow.getByRole('button', { name: 'Delete for good' }).click();
      await otherRow.waitFor({ state: 'detached' });
      await other.getByTestId('stem-mixer').waitFor({ state: 'detached' });
      expect(await other.getByTestId('current-file').innerText()).toBe('No file loaded');
      await page.getByTestId('stem-mixer').waitFor({ state: 'detached' });
      await row.waitFor({ state: 'detached' });
      const ownerId = await other.evaluate(async () => ((await (await fetch('/api/auth/user')).json()) as { id: string }).id);
      expect(await objectKeys(projectPrefix(ownerId, projectId))).toEqual([]);

      await other.reload();
      await other.locator('[data-testid="library-project"], [data-testid="library-empty"]').first().waitFor();
      expect(await libraryRow(other, projectId).count()).toBe(0);
      expect(await other.getByTestId('current-file').innerText()).toBe('No file loaded');
    } finally {
      await otherBrowser.close();
    }
  });
});
