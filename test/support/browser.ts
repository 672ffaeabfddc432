import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Locator, type Page } from 'playwright-core';
import { BASE_URL } from './env';

/**
 * What went wrong inside the pages of the current test: uncaught errors, and console errors other than
 * the browser's own reports of failed network requests (an answer 401/404/415 is often what a test wants).
 * Every page of every context made through `launchBrowser` is watched, and the test fails afterwards.
 */
const pageProblems: string[] = [];

/** The browser's own console lines about requests (not logged by our code). */
const BROWSER_NETWORK_REPORT = /^(Failed to load resource: |WebSocket connection to '.*' failed)/;

function consoleProblem(page: Page, message: ConsoleMessage): string | null {
  if (message.type() !== 'error' || BROWSER_NETWORK_REPORT.test(message.text())) return null;
  const { url, lineNumber } = message.location();
  return `console error on ${page.url()}: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`;
}

export function watchPage(page: Page): void {
  page.on('pageerror', (error) => pageProblems.push(`uncaught error on ${page.url()}: ${error.stack ?? error.message}`));
  page.on('console', (message) => {
    const problem = consoleProblem(page, message);
    if (problem) pageProblems.push(problem);
  });
}

afterEach(() => {
  const problems = pageProblems.splice(0);
  if (problems.length > 0) throw new Error(`The page reported ${problems.length} problem(s):\n${problems.join('\n')}`);
});

/** Debian's Chromium, headless, with no background traffic (this machine has no outside network). */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  // browser.newPage() goes through newContext() too, so every page opened in a test is watched.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.on('page', watchPage);
    return context;
  };
  return browser;
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

/** What a person sees of an element: its box, the text, and whether it is legible where it stands. */
export interface SeenText {
  text: string;
  box: { x: number; y: number; width: number; height: number };
  viewport: { width: number; height: number };
  /** Product of the opacities of the element and its ancestors. */
  opacity: number;
  /** The text is cut off (overflowing its box). */
  clipped: boolean;
  /** The topmost element at the text's centre belongs to it (nothing covers it). */
  onTop: boolean;
  /** WCAG contrast of the text colour (faded by its opacity) against the first opaque background behind it. */
  contrast: number;
}

/** Measures how `locator`'s text looks on screen (see SeenText). */
export function seenText(locator: Locator): Promise<SeenText> {
  return locator.evaluate((element) => {
    const rgba = (css: string): number[] => (css.match(/[\d.]+/g) ?? ['0', '0', '0', '0']).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const channel = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
    };
    let opacity = 1;
    /** Opacity of the text over its background: the element's and its ancestors' up to the background's. */
    let textOpacity = 1;
    let background: number[] | null = null;
    for (let node: Element | null = element; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      opacity *= Number(style.opacity);
      const bg = rgba(style.backgroundColor);
      if (!background && (bg[3] ?? 1) > 0.9) background = bg;
      if (!background) textOpacity *= Number(style.opacity);
    }
    background ??= [0, 0, 0];
    const color = rgba(getComputedStyle(element).color);
    const alpha = (color[3] ?? 1) * textOpacity;
    const fg = [0, 1, 2].map((i) => color[i]! * alpha + background![i]! * (1 - alpha));
    const [light, dark] = [luminance(fg), luminance(background)].sort((a, b) => b - a) as [number, number];
    const rect = element.getBoundingClientRect();
    const top = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
    return {
      text: (element as HTMLElement).innerText,
      box: { x: rect.x, y: rect.y, width: rect.width, height: rect.height },
      viewport: { width: document.documentElement.clientWidth, height: document.documentElement.clientHeight },
      opacity,
      clipped: element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1,
      onTop: top !== null && (element === top || element.contains(top)),
      contrast: (light + 0.05) / (dark + 0.05),
    };
  });
}

/** Whether a box lies wholly inside the viewport. */
export const insideViewport = ({ box, viewport }: Pick<SeenText, 'box' | 'viewport'>): boolean =>
  box.width > 0 && box.height > 0 && box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height;

/**
 * Waits for the toast titled `title` to finish entering (fully opaque, no longer moving), then checks that
 * a person can read it: the toast inside the viewport, its title visible, whole, on top, with AA contrast.
 */
export async function expectReadableToast(page: Page, title: string, timeout = 30_000): Promise<void> {
  const toast = page.getByTestId('toast').filter({ has: page.locator('[data-part="title"]', { hasText: title }) });
  await toast.waitFor({ timeout });
  const titleText = toast.locator('[data-part="title"]');
  let seen = await seenText(titleText);
  for (let settled = 0, i = 0; settled < 3 && i < 60; i++) {
    await page.waitForTimeout(50);
    const next = await seenText(titleText);
    settled = next.opacity > 0.99 && next.box.x === seen.box.x && next.box.y === seen.box.y ? settled + 1 : 0;
    seen = next;
  }
  const whole = await seenText(toast);
  expect({ toastInViewport: insideViewport(whole), titleInViewport: insideViewport(seen) }).toEqual({ toastInViewport: true, titleInViewport: true });
  expect(seen.text).toBe(title);
  expect(seen.opacity).toBeGreaterThan(0.99);
  expect(seen.clipped).toBe(false);
  expect(seen.onTop).toBe(true);
  expect(seen.contrast).toBeGreaterThanOrEqual(4.5);
  expect(await titleText.isVisible()).toBe(true);
  const description = toast.locator('[data-part="description"]');
  if (await description.count()) {
    const line = await seenText(description);
    expect({ inViewport: insideViewport(line), contrastAA: line.contrast >= 4.5, onTop: line.onTop }).toEqual({ inViewport: true, contrastAA: true, onTop: true });
  }
}

export interface WatchedAttribute {
  /** Resolves once the attribute has taken `value` at any time since the watch began. */
  reached(value: string): Promise<void>;
  /** Every value it has taken since, in order (a value set again in a row counts once). */
  seen(): Promise<string[]>;
}

type Watched = { watchedAttributes: Record<string, string[]> };

/**
 * Watches one attribute of the element `selector` finds, from now on, as the page renders it, so that a
 * state lasting a moment (a pad's 150 ms light) is seen however late the test gets to look.
 */
export async function watchAttribute(page: Page, selector: string, attribute: string): Promise<WatchedAttribute> {
  const key = `${selector} ${attribute}`;
  await page.evaluate(
    ({ selector, attribute, key }) => {
      const element = document.querySelector(selector);
      if (!element) throw new Error(`nothing matches ${selector}`);
      const store = ((window as unknown as Partial<Watched>).watchedAttributes ??= {});
      const seen: string[] = (store[key] = []);
      new MutationObserver(() => {
        const value = element.getAttribute(attribute) ?? '';
        if (seen.at(-1) !== value) seen.push(value);
      }).observe(element, { attributes: true, attributeFilter: [attribute] });
    },
    { selector, attribute, key },
  );
  return {
    reached: async (value) => {
      await page.waitForFunction(({ key, value }) => (window as unknown as Watched).watchedAttributes[key]!.includes(value), { key, value });
    },
    seen: () => page.evaluate((key) => (window as unknown as Watched).watchedAttributes[key]!, key),
  };
}
