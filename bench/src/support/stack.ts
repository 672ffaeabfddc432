/**
 * What the browser benchmarks share: the real stack on the test ports (scripts/stack.mjs: NATS, FerretDB,
 * MinIO, Keycloak, the services and the gateway), Debian's Chromium, and a browser context signed in as
 * the demo user through Keycloak (@stemdeck/test-client).
 */
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { signInAt, type SignedInAgent } from '@stemdeck/test-client';

/** The repository root (this file runs from bench/dist/support/). */
export const ROOT = join(__dirname, '..', '..', '..');

export interface Stack {
  publicUrl: string;
  dataDir: string;
}

export interface StackModule {
  stackProfile(profile: string): Stack;
  startInfra(stack: unknown, options: { fresh: boolean }): Promise<void>;
  startApps(stack: unknown, extraEnv?: Record<string, string>): Promise<void>;
  stopAll(): Promise<void>;
}

/** scripts/stack.mjs, the same module `npm start` and `npm test` use. */
export async function loadStackModule(): Promise<StackModule> {
  return (await import(join(ROOT, 'scripts', 'stack.mjs'))) as StackModule;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--autoplay-policy=no-user-gesture-required'],
  });
}

/** A new browser context carrying the agent's gateway session cookie. */
export async function signedInContext(browser: Browser, publicUrl: string, agent: SignedInAgent): Promise<BrowserContext> {
  const context = await browser.newContext();
  const url = new URL(publicUrl);
  await context.addCookies(
    agent.cookie.split('; ').map((pair) => {
      const [name, ...value] = pair.split('=');
      return { name: name!, value: value.join('='), domain: url.hostname, path: '/' };
    }),
  );
  return context;
}

export interface BrowserSession {
  stack: Stack;
  agent: SignedInAgent;
  /** Signed in as `agent`; open the pages here. */
  context: BrowserContext;
}

/**
 * Launches Chromium, starts the test stack fresh, signs the demo user in (over fetch and in a browser
 * context), runs `body`, then always closes the browser and stops the stack, in that order.
 */
export async function withSignedInBrowser(body: (session: BrowserSession) => Promise<void>): Promise<void> {
  const stackModule = await loadStackModule();
  const stack = stackModule.stackProfile('test');
  const browser = await launchChromium();
  try {
    await stackModule.startInfra(stack, { fresh: true });
    await stackModule.startApps(stack);
    const agent = await signInAt(stack.publicUrl, 'demo', 'demo');
    await body({ stack, agent, context: await signedInContext(browser, stack.publicUrl, agent) });
  } finally {
    await browser.close();
    await stackModule.stopAll();
  }
}
