import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { chromiumPerTest, signInThroughKeycloak } from '../support/browser';
import { BASE_URL } from '../support/env';
import { makeClip } from '../support/media';

jest.setTimeout(180_000);

/** axe-core's browser build, injected into each page as it is (nothing is fetched at run time). */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/** Runs axe over the whole page as it stands; returns the serious and critical violations, described. */
async function seriousViolations(page: Page, where: string): Promise<string[]> {
  // Let entering transitions finish: half-faded text would be measured at a contrast it does not keep.
  await page.waitForTimeout(500);
  // Evaluated, not added as an inline <script>: the page's Content-Security-Policy refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${where}: ${violation.id} (${violation.impact}) ${violation.help}\n${violation.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary ?? ''}`).join('\n')}`);
}

describe('accessibility (axe-core, serious and critical violations)', () => {
  const chromium = chromiumPerTest({ width: 1440, height: 900 });
  let page: Page;
  beforeEach(() => void (page = chromium.page));

  it('signed out: the landing page, /studio, /music with each tab, the OSC bridge help and the 404 page', async () => {
    const found: string[] = [];
    await page.goto(`${BASE_URL}/`);
    await page.getByRole('heading', { name: 'You Split. You Create. You Perform.' }).waitFor();
    found.push(...(await seriousViolations(page, 'landing')));
    await page.goto(`${BASE_URL}/studio`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    found.push(...(await seriousViolations(page, '/studio')));
    await page.goto(`${BASE_URL}/music`);
    await page.getByRole('heading', { name: 'Music Studio' }).waitFor();
    for (const tab of ['Demo Songs', 'Drum Machine', 'Synthesizer']) {
      await page.getByRole('tab', { name: tab }).click();
      found.push(...(await seriousViolations(page, `/music ${tab}`)));
    }
    await page.goto(`${BASE_URL}/help/osc-bridge`);
    await page.getByRole('heading', { name: 'The Stemdeck OSC bridge' }).waitFor();
    found.push(...(await seriousViolations(page, 'OSC bridge help')));
    await page.goto(`${BASE_URL}/no/such/page`);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    found.push(...(await seriousViolations(page, '404')));
    expect(found).toEqual([]);
  });

  it('signed in: the studio home and every studio section, on a desktop and on a phone, and the mixer with stems', async () => {
    const found: string[] = [];
    await signInThroughKeycloak(page);
    await page.getByRole('heading', { name: 'Your studio is ready' }).waitFor();
    found.push(...(await seriousViolations(page, 'studio home')));

    await page.goto(`${BASE_URL}/app`);
    const sidebar = page.getByTestId('sidebar');
    const sections: Array<[string, string]> = [
      ['Upload & Split', 'Upload Your Media'],
      ['Create Music', 'Music Creation Studio'],
      ['Video & Visuals', 'Visual Generation'],
      ['AI Mastering', 'AI Mastering'],
      ['Export & Share', 'Export & Share'],
    ];
    for (const [label, heading] of sections) {
      await sidebar.getByRole('button', { name: label }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      if (label === 'Create Music') await page.getByTestId('performance-pads').waitFor();
      found.push(...(await seriousViolations(page, `studio: ${label}`)));
    }

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByTestId('sidebar-drawer').waitFor();
    found.push(...(await seriousViolations(page, 'studio on a phone: menu open')));
    await page.getByTestId('sidebar-drawer').getByRole('button', { name: 'Upload & Split' }).click();
    await page.getByTestId('sidebar-drawer').waitFor({ state: 'hidden' });
    found.push(...(await seriousViolations(page, 'studio on a phone: Upload & Split')));

    // With a song split into stems: the timeline and the mixer.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('upload-panel').locator('input[type="file"]').setInputFiles(makeClip('a11y-song-4s.wav', 4));
    await page.getByRole('button', { name: 'Split into Stems' }).click();
    await page.locator('[data-testid="stem-mixer"][data-decoded="true"]').waitFor({ timeout: 90_000 });
    // The success toast may still be fading in or out; the mixer is what is checked here.
    await page.getByTestId('toast').waitFor({ state: 'detached', timeout: 15_000 });
    found.push(...(await seriousViolations(page, 'studio: mixer with stems')));
    expect(found).toEqual([]);
  });
});
