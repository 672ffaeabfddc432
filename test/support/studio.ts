import { STEM_TYPES } from '@stemdeck/proto/vocabulary';
import type { Page } from 'playwright-core';

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
