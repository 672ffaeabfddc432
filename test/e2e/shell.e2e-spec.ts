import type { Page } from 'playwright-core';
import { chromiumPerTest, insideViewport, seenText, signInThroughKeycloak } from '../support/browser';
import { BASE_URL } from '../support/env';

jest.setTimeout(60_000);

describe('studio shell in Chromium', () => {
  const chromium = chromiumPerTest();
  let page: Page;
  beforeEach(() => void (page = chromium.page));

  it('landing page shows its headline, figures and features to a signed-out visitor', async () => {
    await page.goto(`${BASE_URL}/`);
    await page.getByRole('heading', { name: 'You Split. You Create. You Perform.' }).waitFor();
    await expectVisible(page, ['0.3s', 'Processing Time', 'Stem Outputs', 'Creative Possibilities', '24bit', 'Audio Quality']);
    await expectVisible(page, ['AI-Powered Separation', 'Live Performance Mode', 'Visual Synchronization', 'Professional Mastering']);
    await expectVisible(page, ['Powered by Cutting-Edge AI']);
    expect(await page.getByRole('link', { name: 'Sign In', exact: true }).getAttribute('href')).toBe('/api/login');
    expect(await page.getByRole('link', { name: 'Sign In to Start' }).getAttribute('href')).toBe('/api/login');
    expect(await page.getByRole('link', { name: 'Launch', exact: true }).getAttribute('href')).toBe('/app');

    await page.getByRole('button', { name: 'Watch It Work' }).click();
    await page.getByTestId('demo-overlay').waitFor();
    await page.getByTestId('demo-overlay').click();
    await page.getByTestId('demo-overlay').waitFor({ state: 'detached' });
  });

  it('unknown paths show the 404 page with the developer hint', async () => {
    await page.goto(`${BASE_URL}/definitely/not/here`);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await expectVisible(page, ['Did you forget to add the page to the router?']);
  });

  it('signed out: /api/auth/user is 401, /music is open, /app and /collaborate send you to sign in', async () => {
    const response = await page.request.get(`${BASE_URL}/api/auth/user`);
    expect(response.status()).toBe(401);
    await page.goto(`${BASE_URL}/music`);
    await page.getByRole('heading', { name: 'Music Studio' }).waitFor();
    await page.goto(`${BASE_URL}/app`);
    await page.waitForURL(/\/realms\/stemdeck\/protocol\/openid-connect\/auth/);
    await page.goto(`${BASE_URL}/collaborate`);
    await page.waitForURL(/\/realms\/stemdeck\/protocol\/openid-connect\/auth/);
    await page.goto(`${BASE_URL}/studio`);
    await page.getByRole('link', { name: 'Start Creating Music' }).waitFor();
  });

  it.each([
    ['desktop', 1440, 900],
    ['phone', 390, 844],
  ])('signed out on a %s, /studio offers to sign in, in view, and signing in there opens the studio', async (_name, width, height) => {
    await page.setViewportSize({ width, height });
    await page.goto(`${BASE_URL}/studio`);
    await page.getByRole('heading', { name: 'Sign in to open your studio', level: 1 }).waitFor();
    expect(await page.getByText('Your studio is ready').count()).toBe(0);
    const signIn = page.getByRole('link', { name: 'Sign In to Start' });
    expect(await signIn.getAttribute('href')).toBe('/api/login?returnTo=%2Fstudio');
    const seen = await seenText(signIn);
    expect(insideViewport(seen)).toBe(true);
    expect(seen.onTop).toBe(true);
    expect(seen.contrast).toBeGreaterThanOrEqual(4.5);
    await signIn.click();
    await page.waitForURL(/\/realms\/stemdeck\/protocol\/openid-connect\/auth/);
    await page.fill('#username', 'demo');
    await page.fill('#password', 'demo');
    await page.click('#kc-login');
    await page.waitForURL(`${BASE_URL}/studio`);
    await page.getByRole('heading', { name: 'Upload Your Media', level: 1 }).waitFor();
  });

  it('signs in through Keycloak as demo/demo, uses the studio, and signs out', async () => {
    await signInThroughKeycloak(page);
    await page.getByRole('link', { name: 'Start Creating Music' }).waitFor();
    expect(await page.getByRole('link', { name: 'Upload & Process Media' }).getAttribute('href')).toBe('/app');

    await page.goto(`${BASE_URL}/app`);
    const sidebar = page.getByTestId('sidebar');
    await sidebar.getByTestId('user-display-name').getByText('Demo User').waitFor();
    await sidebar.getByText('Pro Account').waitFor();
    await sidebar.getByTestId('status-apis').and(page.locator('[data-state="connected"]')).waitFor();
    await sidebar.getByTestId('status-local').getByText('Active').waitFor();
    await page.getByTestId('current-file').getByText('No file loaded').waitFor();
    expect(await page.getByRole('button', { name: 'Pause' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Play' }).isDisabled()).toBe(false);

    await page.getByRole('heading', { name: 'Upload Your Media' }).waitFor();
    const sections: Array<[string, string, string]> = [
      ['Create Music', 'Music Creation Studio', 'Create beats, play synths, and perform live'],
      ['Video & Visuals', 'Visual Generation', 'AI-powered video creation and real-time visual sync'],
      ['AI Mastering', 'AI Mastering', 'Professional mastering using cloud APIs - offline processing only'],
      ['Export & Share', 'Export & Share', 'Export individual stems, full mix, or share your project'],
      ['Upload & Split', 'Upload Your Media', 'Drop your audio or video file here to begin'],
    ];
    for (const [label, heading, subtitle] of sections) {
      await sidebar.getByRole('button', { name: label }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.getByText(subtitle).waitFor();
      expect(page.url()).toBe(`${BASE_URL}/app`); // sections switch in place
    }

    await page.getByRole('button', { name: 'Play' }).click();
    const toast = page.getByTestId('toast');
    await toast.getByText('No audio loaded').waitFor();
    await toast.getByText('Please load an audio file first').waitFor();
    // One toast visible at a time, F8 focuses the notification region.
    await page.getByRole('button', { name: 'Play' }).click();
    await page.waitForTimeout(300);
    expect(await toast.count()).toBe(1);
    // The same news again keeps that toast and starts its 5 s again: past 5 s from the first it is still the
    // same toast on screen (a queued repeat would be a new one, shown once the first had gone).
    const first = await toast.first().elementHandle();
    await page.waitForTimeout(2_200);
    await page.getByRole('button', { name: 'Play' }).click();
    await page.waitForTimeout(3_500);
    expect([await first!.evaluate((element) => element.isConnected), await toast.count()]).toEqual([true, 1]);
    await page.keyboard.press('F8');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[data-scope="toast"]')))).toBe(true);
    // A short drag leaves it; a swipe right past the threshold dismisses it.
    await swipe(page, toast.first(), 30);
    await page.waitForTimeout(500);
    expect(await toast.count()).toBe(1);
    await swipe(page, toast.first(), 90);
    await toast.first().waitFor({ state: 'detached' });

    await sidebar.getByTestId('user-block').click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.getByRole('heading', { name: 'You Split. You Create. You Perform.' }).waitFor();
    await page.getByRole('link', { name: 'Sign In', exact: true }).waitFor();
    expect((await page.request.get(`${BASE_URL}/api/auth/user`)).status()).toBe(401);
  });

  it('on a small screen the sidebar is a drawer that closes when a section is chosen', async () => {
    await signInThroughKeycloak(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${BASE_URL}/app`);
    await page.getByRole('heading', { name: 'Upload Your Media' }).waitFor();
    expect(await page.getByTestId('sidebar').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByTestId('sidebar-drawer');
    await drawer.waitFor();
    await drawer.getByRole('button', { name: 'AI Mastering' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'AI Mastering', level: 1 }).waitFor();
  });
});

async function swipe(page: Page, target: ReturnType<Page['getByTestId']>, dx: number): Promise<void> {
  const box = (await target.boundingBox())!;
  const y = box.y + box.height / 2;
  const x = box.x + 20;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y, { steps: 4 });
  await page.mouse.move(x + dx, y, { steps: 4 });
  await page.mouse.up();
}

async function expectVisible(page: Page, texts: string[]): Promise<void> {
  for (const text of texts) await page.getByText(text, { exact: true }).first().waitFor();
}
