import { createSocket, type Socket } from 'node:dgram';
import OSC from 'osc-js';
import type { Page } from 'playwright-core';
import { OscBridge } from '../../tools/osc-bridge/src/bridge';
import { chromiumPerTest, signInThroughKeycloak, watchAttribute } from '../support/browser';
import { BASE_URL } from '../support/env';
import { listen } from '../support/media';
import { signIn } from '../support/sign-in';

jest.setTimeout(90_000);

/** The port the studio's OSC client expects the bridge on (frontend/src/instruments/oscBridgeClient.ts). */
const BRIDGE_PORT = 7400;

describe('music in Chromium', () => {
  const chromium = chromiumPerTest({ width: 1400, height: 1000 });
  let page: Page;
  beforeEach(() => void (page = chromium.page));

  it('/music works signed out: the audio test hears its tones, the drum machine plays and its step moves', async () => {
    await page.goto(`${BASE_URL}/music`);
    await page.getByRole('heading', { name: 'Music Studio' }).waitFor();
    await page.getByRole('button', { name: 'Test Audio' }).click();
    await page.getByText('Audio is working!').waitFor({ timeout: 10_000 });
    expect(await page.getByRole('button', { name: 'Test Again' }).isEnabled()).toBe(true);

    await page.getByRole('tab', { name: 'Drum Machine' }).click();
    await page.getByRole('button', { name: 'Play Pattern' }).click();
    const current = () => page.locator('[data-testid="sequencer"] [data-current="true"]').first().getAttribute('aria-label');
    await page.locator('[data-testid="sequencer"] [data-current="true"]').first().waitFor();
    const seen = new Set<string | null>();
    for (let i = 0; i < 8; i++) {
      seen.add(await current());
      await page.waitForTimeout(60);
    }
    expect(seen.size).toBeGreaterThan(2); // the highlight walks across the steps
    await page.getByRole('button', { name: 'Stop Pattern' }).click();
    await page.locator('[data-testid="sequencer"] [data-current="true"]').first().waitFor({ state: 'detached' });

    // A drum pad lights when its key is pressed (for 150 ms: watched from before the press).
    const snareLit = await watchAttribute(page, '[data-testid="drum-pad-snare"]', 'data-active');
    await page.keyboard.press('2');
    await snareLit.reached('true');

    // The demo songs start and stop cleanly, again and again, stopped while their notes still ring (an
    // error thrown on the page fails the test).
    await page.getByRole('tab', { name: 'Demo Songs' }).click();
    for (let i = 0; i < 8; i++) {
      const card = page.getByTestId(i % 2 === 0 ? 'demo-full-track' : `demo-${['basic-beat', 'melody-chords'][(i >> 1) % 2]}`);
      await card.getByRole('button', { name: 'Play' }).click();
      await card.getByRole('button', { name: 'Stop' }).waitFor();
      await page.waitForTimeout(250 + (i % 4) * 120);
      await card.getByRole('button', { name: 'Stop' }).click();
      await card.getByRole('button', { name: 'Play' }).waitFor();
    }
    await page.waitForTimeout(3_500); // stopped songs free their instruments once their last notes have ended
    // Nothing plays on, and freeing them left the shared output working: the audio test still hears its tones.
    expect(await page.getByTestId('demo-songs').getByRole('button', { name: 'Stop' }).count()).toBe(0);
    // Under a second: looked for from before the click.
    const playing = page.getByRole('button', { name: 'Playing...' }).waitFor();
    playing.catch(() => undefined); // awaited below, after the click
    await page.getByRole('button', { name: 'Test Again' }).click();
    await playing;
    await page.getByText('Audio is working!').waitFor({ timeout: 10_000 });
  });

  describe('performance pads', () => {
    let bridge: OscBridge | undefined;
    let udp: Socket;
    const received: Array<{ address: string; args: unknown[] }> = [];

    beforeAll(async () => {
      udp = createSocket('udp4');
      udp.on('message', (data) => {
        const message = new OSC.Message();
        message.unpack(new DataView(data.buffer, data.byteOffset, data.byteLength));
        received.push({ address: message.address, args: message.args });
      });
      await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      await bridge?.close();
      udp.close();
    });

    /** Starts the bridge once for the tests that need it (each test can also run alone). */
    async function startBridge(): Promise<OscBridge> {
      if (!bridge) {
        bridge = new OscBridge({ port: BRIDGE_PORT, target: { host: '127.0.0.1', port: 9 }, allowedOrigins: [] });
        await bridge.start();
      }
      return bridge;
    }

    it('OSC output off until turned on: no look at all; then plain words, help, and looks only while shown', async () => {
      const consoleLines: string[] = [];
      page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
      /** The browser reports each refused look for the bridge as a console error; our code logs nothing. */
      const looks = () => consoleLines.filter((line) => line.includes('127.0.0.1:7400')).length;
      const waitForLooks = async (count: number) => {
        for (let i = 0; i < 100 && looks() < count; i++) await page.waitForTimeout(100);
        expect(looks()).toBe(count);
      };
      await signInThroughKeycloak(page);
      await page.goto(`${BASE_URL}/app`);
      const sidebar = page.getByTestId('sidebar');
      await sidebar.getByRole('button', { name: 'Create Music' }).click();
      // Off by default: someone who never uses VJ software never has the bridge looked for (no console line).
      await page.locator('[data-testid="osc-status"][data-state="off"]').waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('osc-status').innerText()).toBe('OSC bridge: off');
      await page.waitForTimeout(3_000);
      expect(looks()).toBe(0);

      await page.getByRole('button', { name: 'Turn on OSC output' }).click();
      await page.locator('[data-testid="osc-status"][data-state="not-running"]').waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('osc-status').innerText()).toBe('OSC bridge: not running');
      await page.getByText('Browsers cannot send OSC themselves: run the Stemdeck OSC bridge on this computer to reach VJ software.').waitFor();
      expect(await page.getByTestId('section-pads').innerText()).not.toMatch(/npm|osc-bridge/);

      // Six seconds on the pads, then twenty elsewhere: only the look on turning it on (the next is not due for
      // 10 s, and none while the pads are not shown). Looking every 5 s, 10 s, 20 s regardless made three.
      await page.waitForTimeout(6_000);
      await sidebar.getByRole('button', { name: 'AI Mastering' }).click();
      await page.waitForTimeout(20_000);
      expect(looks()).toBe(1);
      // Back on the pads (remembered on): one look at once; "Look again" another at once.
      await sidebar.getByRole('button', { name: 'Create Music' }).click();
      await waitForLooks(2);
      await page.locator('[data-testid="osc-status"][data-state="not-running"]').waitFor();
      await page.getByRole('button', { name: 'Look again' }).click();
      await waitForLooks(3);
      // Nothing else: no console error of our own (the browser's own report of a 401 while signing in aside).
      const browserReports = /^error: (WebSocket connection to 'ws:\/\/127\.0\.0\.1:7400\/' failed|Failed to load resource: )/;
      expect(consoleLines.filter((line) => line.startsWith('error:') && !browserReports.test(line))).toEqual([]);

      // The help opens beside the studio and works offline (it is part of the app).
      const [help] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: 'How to set up the OSC bridge' }).click()]);
      await help.getByRole('heading', { name: 'The Stemdeck OSC bridge', level: 1 }).waitFor();
      await help.getByText('Whoever installed Stemdeck on this computer can start it', { exact: false }).waitFor();
      await help.close();

      // Started now, the bridge is found as soon as the person asks.
      await startBridge();
      await page.locator('[data-testid="osc-status"][data-state="not-running"]').waitFor();
      await page.getByRole('button', { name: 'Look again' }).click();
      await page.locator('[data-testid="osc-status"][data-state="connected"]').waitFor();
      expect(await page.getByTestId('osc-status').innerText()).toBe('OSC bridge: connected → 127.0.0.1:9');

      // Turned off: let go, and no more looks even after a reload.
      await page.getByRole('button', { name: 'Turn off OSC output' }).click();
      await page.locator('[data-testid="osc-status"][data-state="off"]').waitFor();
      await page.reload();
      await sidebar.getByRole('button', { name: 'Create Music' }).click();
      await page.locator('[data-testid="osc-status"][data-state="off"]').waitFor();
      await page.waitForTimeout(2_000);
      expect(looks()).toBe(3);
    });

    it('light up, send pad_trigger over /ws and OSC through the bridge to the target set in the panel', async () => {
      await startBridge();
      const otherTab = await listen(await signIn('demo', 'demo'));
      await signInThroughKeycloak(page);
      await page.goto(`${BASE_URL}/app`);
      await page.getByRole('button', { name: 'Create Music' }).click();
      await page.getByTestId('performance-pads').waitFor();
      await page.getByRole('button', { name: 'Turn on OSC output' }).click();
      await page.locator('[data-testid="osc-status"][data-state="connected"]').waitFor({ timeout: 15_000 });

      const udpPort = udp.address().port;
      await page.getByLabel('OSC target').fill(`127.0.0.1:${udpPort}`);
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText(`OSC bridge: connected → 127.0.0.1:${udpPort}`).waitFor();

      const vocalsLit = await watchAttribute(page, '[data-testid="pad-vocals"]', 'data-lit');
      await page.getByTestId('pad-vocals').dispatchEvent('pointerdown');
      await vocalsLit.reached('true');
      await page.locator('[data-testid="pad-vocals"][data-lit="false"]').waitFor(); // the highlight is brief
      await page.getByTestId('pad-reverb').dispatchEvent('pointerdown');
      await page.getByTestId('pad-reverb').dispatchEvent('pointerup');

      expect(await otherTab.waitFor((e) => e.type === 'pad_trigger' && e.pad === 'Vocals')).toEqual({ type: 'pad_trigger', pad: 'Vocals', velocity: 127 });
      await otherTab.waitFor((e) => e.type === 'pad_trigger' && e.pad === 'Reverb');
      otherTab.close();
      for (let i = 0; i < 100 && received.length < 2; i++) await page.waitForTimeout(50);
      expect(received).toEqual([
        { address: '/stemdeck/pad/vocals', args: [127] },
        { address: '/stemdeck/pad/reverb', args: [127] },
      ]);
      // Each pad: one live message and one OSC packet (no MIDI output chosen).
      expect(await page.getByTestId('metric-events-sent').innerText()).toBe('4');
      expect(await page.getByTestId('metric-latency').innerText()).toMatch(/^\d+(\.\d)? ms$/);
    });

  });
});
