import { STEM_TYPES } from '@stemdeck/proto/vocabulary';
import type { Page } from 'playwright-core';
import { insideViewport, seenText } from './browser';

/** Waits until the four stem cards are there and their audio is decoded (Play then moves the clock). */
export async function waitForStems(page: Page, timeout = 60_000): Promise<void> {
  for (const type of STEM_TYPES) await page.getByTestId(`stem-${type}`).waitFor({ timeout });
  await page.locator('[data-testid="stem-mixer"][data-decoded="true"]').waitFor({ timeout });
}

/** Chooses a file with the panel's file chooser ("Choose File", or "Upload another" once a project is open) and splits it. */
export async function uploadThroughChooser(page: Page, path: string, button = 'Choose File'): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: button }).click();
  await (await chooser).setFiles(path);
  await page.getByRole('button', { name: 'Split into Stems' }).click();
}

/** A toast with this title (and description) in the notifications region. */
export async function waitForToast(page: Page, title: string, description?: string | RegExp): Promise<void> {
  const region = page.getByRole('region', { name: /notifications/i });
  await region.getByText(title, { exact: true }).waitFor();
  if (description !== undefined) await region.getByText(description, typeof description === 'string' ? { exact: true } : {}).waitFor();
}

/**
 * From now on, every label the AI Mastering Start button of `kind` (`start-<kind>`) shows and every value its
 * progress bar (`<kind>-progress`) shows, as the page renders them; read them with `jobStatesSeen`.
 */
export async function recordJobStates(page: Page, kind: 'mastering' | 'enhance'): Promise<void> {
  await page.evaluate((kind) => {
    const seen = { labels: [] as string[], progress: [] as number[] };
    (window as unknown as { jobStatesSeen: typeof seen }).jobStatesSeen = seen;
    const record = () => {
      const label = document.querySelector(`[data-testid="start-${kind}"]`)?.textContent?.trim();
      if (label && seen.labels.at(-1) !== label) seen.labels.push(label);
      const progress = document.querySelector(`[data-testid="${kind}-progress"]`)?.getAttribute('data-progress');
      if (progress !== null && progress !== undefined && seen.progress.at(-1) !== Number(progress)) seen.progress.push(Number(progress));
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    record();
  }, kind);
}

export const jobStatesSeen = (page: Page) => page.evaluate(() => (window as unknown as { jobStatesSeen: { labels: string[]; progress: number[] } }).jobStatesSeen);

/** The element is scrolled to, visible and inside the viewport. */
export async function expectInViewport(page: Page, testId: string): Promise<void> {
  const element = page.getByTestId(testId);
  await element.scrollIntoViewIfNeeded();
  expect(await element.isVisible()).toBe(true);
  expect(insideViewport(await seenText(element))).toBe(true);
}
