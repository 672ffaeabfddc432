import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { BASE_URL } from './env';

/** Debian's Chromium, headless, with no background traffic (this machine has no outside network). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}

/** Signs in on Keycloak's real login page, starting from the landing page's Sign In button. */
export async function signInThroughKeycloak(page: Page, username = 'demo', password = 'demo'): Promise<void> {
  await page.goto(`${BASE_URL}/`);
  await page.getByRole('link', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(/\/realms\/stemdeck\/protocol\/openid-connect\/auth/);
  await page.fill('#username', username);
  await page.fill('#password', password);
  await page.click('#kc-login');
  await page.waitForURL(`${BASE_URL}/`);
}

export interface ChromiumSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * One Chromium for the spec file and a fresh context and page for every test, so cookies and storage
 * never leak from one test into the next. Register it first: its hooks run before the spec's own.
 */
export function chromiumPerTest(viewport = { width: 1280, height: 800 }): ChromiumSession {
  const session = {} as ChromiumSession;
  beforeAll(async () => {
    session.browser = await launchBrowser();
  });
  afterAll(() => session.browser.close());
  beforeEach(async () => {
    session.context = await session.browser.newContext({ viewport });
    session.page = await session.context.newPage();
  });
  afterEach(() => session.context.close());
  return session;
}
