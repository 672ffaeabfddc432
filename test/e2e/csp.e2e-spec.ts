import type { BrowserContext, Page } from 'playwright-core';
import { OscBridge } from '../../tools/osc-bridge/src/bridge';
import { chromiumPerTest, seenText, signInThroughKeycloak } from '../support/browser';
import { BASE_URL } from '../support/env';
import { makeClip } from '../support/media';
import { expectInViewport, uploadThroughChooser, waitForStems } from '../support/studio';

jest.setTimeout(300_000);

/** The port the studio's OSC client expects the bridge on (frontend/src/instruments/oscBridgeClient.ts). */
const BRIDGE_PORT = 7400;

interface Violation {
  page: string;
  directive: string;
  blocked: string;
  source: string;
  sample: string;
}

/**
 * Every Content-Security-Policy violation in any page of `context` (the studio, the output window it opens):
 * the browser's `securitypolicyviolation` events, reported to the test as they happen (so a navigation loses
 * none), and its console lines about the policy.
 */
async function recordViolations(context: BrowserContext): Promise<(stage: string) => void> {
  const events: Violation[] = [];
  const consoleLines: string[] = [];
  await context.exposeBinding('reportCspViolation', ({ page }, violation: Omit<Violation, 'page'>) => void events.push({ page: page.url(), ...violation }));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (v: object) => void }).reportCspViolation;
      report({ directive: event.effectiveDirective, blocked: event.blockedURI, source: `${event.sourceFile}:${event.lineNumber}`, sample: event.sample });
    });
  });
  const watch = (page: Page) => page.on('console', (message) => /Content.Security.Policy/i.test(message.text()) && consoleLines.push(`${page.url()}: ${message.text()}`));
  context.pages().forEach(watch);
  context.on('page', watch);
  /** Checked after each stage of the walk, so a violation fails the test where it happened. */
  return (stage) => expect({ stage, violations: events, console: consoleLines }).toEqual({ stage, violations: [], console: [] });
}

/** A heading a person can read: in the viewport, on top, legible against what is behind it (so the styles applied). */
async function expectReadableHeading(page: Page, name: string): Promise<void> {
  const heading = page.getByRole('heading', { name, exact: true }).first();
  await heading.waitFor();
  const seen = await seenText(heading);
  expect({ name, onTop: seen.onTop, contrastAA: seen.contrast >= 4.5, opacity: seen.opacity }).toEqual({ name, onTop: true, contrastAA: true, opacity: 1 });
}

describe('the studio under its Content-Security-Policy', () => {
  const chromium = chromiumPerTest({ width: 1400, height: 1000 });
  let bridge: OscBridge | undefined;
  afterAll(() => bridge?.close());

  it('studio, mixer, visualizer and its output window, /music, OSC output and /collaborate run without a single violation', async () => {
    const page = chromium.page;
    const expectNoViolations = await recordViolations(chromium.context);
    const policy = (await page.request.get(`${BASE_URL}/`)).headers()['content-security-policy'];
    expect(policy).toMatch(/style-src 'self' 'nonce-/);

    await signInThroughKeycloak(page);
    // The studio with a song: upload, stems, Play, the mixer.
    await page.goto(`${BASE_URL}/app`);
    await page.getByTestId('upload-panel').waitFor();
    await uploadThroughChooser(page, makeClip('e2e-csp-12s.mp3', 12, { codecArgs: ['-b:a', '128k'] }));
    await waitForStems(page, 120_000);
    await page.getByTestId('separation-fast').waitFor({ state: 'detached', timeout: 180_000 });
    const transport = page.locator('header');
    await transport.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="timeline-current"]')?.textContent !== '0:00', undefined, { timeout: 10_000 });
    const mute = page.getByRole('button', { name: 'Mute vocals' });
    await mute.click();
    await page.waitForFunction(() => document.querySelector('button[aria-label="Mute vocals"]')?.getAttribute('aria-pressed') === 'true');
    await expectInViewport(page, 'stem-vocals');
    expectNoViolations('studio: upload, stems, Play, mute');

    // The visualizer in its eval-free Milkdrop mode, then the output window it opens.
    await page.getByTestId('sidebar').getByRole('button', { name: 'Video & Visuals' }).click();
    const panel = page.getByTestId('visualizer-panel');
    await panel.waitFor();
    await panel.getByRole('group', { name: 'Visualizer mode' }).getByRole('button', { name: 'Milkdrop', exact: true }).click();
    await page.locator('[data-testid="visualizer-stage"][data-mode="milkdrop"][data-drawing="true"]').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1_500);
    expect(await page.getByTestId('visualizer-problem').count()).toBe(0);
    await expectInViewport(page, 'visualizer-screen');
    const [output] = await Promise.all([chromium.context.waitForEvent('page'), panel.getByRole('button', { name: 'Open output window' }).click()]);
    await output.waitForLoadState();
    expect(new URL(output.url()).pathname).toBe('/output');
    await output.locator('[data-testid="output-page"][data-waiting="false"]').waitFor({ timeout: 15_000 });
    await output.locator('[data-testid="visualizer-stage"][data-mode="milkdrop"]').waitFor();
    await output.waitForTimeout(1_000);
    await transport.getByRole('button', { name: 'Pause', exact: true }).click();
    await output.close();
    expectNoViolations('visualizer and output window');

    // OSC output to the local bridge (connect-src names it): found and connected.
    bridge = new OscBridge({ port: BRIDGE_PORT, target: { host: '127.0.0.1', port: 9 }, allowedOrigins: [] });
    await bridge.start();
    await page.getByTestId('sidebar').getByRole('button', { name: 'Create Music' }).click();
    await page.getByRole('button', { name: 'Turn on OSC output' }).click();
    await page.locator('[data-testid="osc-status"][data-state="connected"]').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('osc-status').innerText()).toBe('OSC bridge: connected → 127.0.0.1:9');
    expectNoViolations('OSC output');

    // /music: its instruments make sound (Tone.js's clock runs in a blob: worker).
    await page.goto(`${BASE_URL}/music`);
    await expectReadableHeading(page, 'Music Studio');
    await page.getByRole('button', { name: 'Test Audio' }).click();
    await page.getByText('Audio is working!').waitFor({ timeout: 10_000 });
    await page.getByRole('tab', { name: 'Drum Machine' }).click();
    await page.getByRole('button', { name: 'Play Pattern' }).click();
    await page.locator('[data-testid="sequencer"] [data-current="true"]').first().waitFor();
    await page.waitForTimeout(1_000);
    await page.getByRole('button', { name: 'Stop Pattern' }).click();
    await page.getByRole('tab', { name: 'Demo Songs' }).click();
    const song = page.getByTestId('demo-full-track');
    await song.getByRole('button', { name: 'Play' }).click();
    await song.getByRole('button', { name: 'Stop' }).waitFor();
    await page.waitForTimeout(1_000);
    await song.getByRole('button', { name: 'Stop' }).click();
    expectNoViolations('/music');

    // /collaborate: a session on the song, live over /ws, a pad hit and a shared Play.
    await page.goto(`${BASE_URL}/collaborate`);
    await expectReadableHeading(page, 'Collaborate');
    await page.locator('[data-testid="connection-badge"][data-connected="true"]').waitFor();
    await page.getByTestId('open-create-session').click();
    const dialog = page.getByTestId('create-session-dialog');
    await dialog.getByPlaceholder('My Awesome Session').fill('CSP Jam');
    const select = dialog.getByTestId('session-project-select');
    await select.locator('option', { hasText: 'e2e-csp-12s' }).first().waitFor({ state: 'attached' });
    await select.selectOption((await select.locator('option', { hasText: 'e2e-csp-12s' }).first().getAttribute('value'))!);
    await dialog.getByRole('button', { name: 'Create Session' }).click();
    await page.getByTestId('session-bar').waitFor();
    await page.getByTestId('collab-pad-kick').click();
    await page.getByTestId('session-play').click();
    await page.waitForTimeout(1_500);

    expectNoViolations('/collaborate');
  });
});
