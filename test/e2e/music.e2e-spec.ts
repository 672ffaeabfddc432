import { createSocket, type Socket } from 'node:dgram';
import OSC from 'osc-js';
import type { Page } from 'playwright-core';
import { OscBridge } from '../../tools/osc-bridge/src/bridge';
import { chromiumPerTest, signInThroughKeycloak } from '../support/browser';
import { BASE_URL } from '../support/env';
import { listen } from '../support/media';
import { signIn } from '../support/sign-in';

jest.setTimeout(90_000);

/** The port the studio's OSC client expects the bridge on (frontend/src/music/oscBridgeClient.ts). */
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

    // A drum pad lights when its key is pressed.
    await page.keyboard.press('2');
    await page.locator('[data-testid="drum-pad-snare"][data-active="true"]').waitFor();
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

    it('say so when the bridge is not running', async () => {
      await signInThroughKeycloak(page);
      await page.goto(`${BASE_URL}/app`);
      await page.getByRole('button', { name: 'Create Music' }).click();
      await page.getByText('OSC bridge: not running (start it with npm run osc-bridge)').waitFor({ timeout: 15_000 });
    });

    it('light up, send pad_trigger over /ws and OSC through the bridge to the target set in the panel', async () => {
      bridge = new OscBridge({ port: BRIDGE_PORT, target: { host: '127.0.0.1', port: 9 }, allowedOrigins: [] });
      await bridge.start();
      const otherTab = await listen(await signIn('demo', 'demo'));
      await signInThroughKeycloak(page);
      await page.goto(`${BASE_URL}/app`);
      await page.getByRole('button', { name: 'Create Music' }).click();
      await page.getByTestId('performance-pads').waitFor();
      await page.locator('[data-testid="osc-status"][data-state="connected"]').waitFor({ timeout: 15_000 });

      const udpPort = udp.address().port;
      await page.getByLabel('OSC target').fill(`127.0.0.1:${udpPort}`);
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText(`OSC bridge: connected → 127.0.0.1:${udpPort}`).waitFor();

      await page.getByTestId('pad-vocals').dispatchEvent('pointerdown');
      await page.locator('[data-testid="pad-vocals"][data-lit="true"]').waitFor();
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
