import { createSocket, type Socket } from 'node:dgram';
import OSC from 'osc-js';
import type { Locator, Page } from 'playwright-core';
import { OscBridge } from '../../tools/osc-bridge/src/bridge';
import { chromiumPerTest, insideViewport, seenText, signInThroughKeycloak } from '../support/browser';
import { BASE_URL } from '../support/env';

jest.setTimeout(120_000);

/** The port the studio's OSC client expects the bridge on (frontend/src/instruments/oscBridgeClient.ts). */
const BRIDGE_PORT = 7400;
/** The drum machine's starting tempo, and Resolume's tempo fader value for it (0..1 across 20..500 BPM). */
const DRUM_BPM = 120;
const RESOLUME_TEMPO_120 = (DRUM_BPM - 20) / 480;

interface Received {
  address: string;
  types: string;
  args: unknown[];
}

/** A UDP listener on 127.0.0.1 that decodes every datagram as one OSC message. */
class OscListener {
  readonly messages: Received[] = [];
  private readonly socket: Socket = createSocket('udp4');

  async start(): Promise<this> {
    this.socket.on('message', (data) => {
      const message = new OSC.Message('/');
      message.unpack(new DataView(data.buffer, data.byteOffset, data.byteLength));
      this.messages.push({ address: message.address, types: message.types, args: message.args });
    });
    await new Promise<void>((resolve) => this.socket.bind(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return this.socket.address().port;
  }

  addresses(): Set<string> {
    return new Set(this.messages.map((message) => message.address));
  }

  async waitFor(address: string, page: Page): Promise<Received> {
    for (let i = 0; i < 200; i++) {
      const found = this.messages.find((message) => message.address === address);
      if (found) return found;
      await page.waitForTimeout(50);
    }
    throw new Error(`${address} never arrived on port ${this.port}; got ${[...this.addresses()].join(', ') || 'nothing'}`);
  }

  close(): void {
    this.socket.close();
  }
}

/** A person can read it: in the viewport once scrolled to, whole, on top, with AA contrast. */
async function expectReadable(locator: Locator): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  const seen = await seenText(locator);
  expect({ text: seen.text, inside: insideViewport(seen), clipped: seen.clipped, onTop: seen.onTop }).toEqual({
    text: seen.text,
    inside: true,
    clipped: false,
    onTop: true,
  });
  expect(seen.opacity).toBe(1);
  expect(seen.contrast).toBeGreaterThanOrEqual(4.5);
}

describe('real-time sync in Chromium', () => {
  const chromium = chromiumPerTest({ width: 1400, height: 1000 });
  let bridge: OscBridge;
  /** The bridge's default target (TouchDesigner) and the one the Resolume card is pointed at. */
  let touchDesigner: OscListener;
  let resolume: OscListener;

  beforeAll(async () => {
    touchDesigner = await new OscListener().start();
    resolume = await new OscListener().start();
    // Resolume's route starts on the discard port: only the target typed in the card can reach the listener.
    bridge = new OscBridge({ port: BRIDGE_PORT, target: { host: '127.0.0.1', port: touchDesigner.port }, resolumeTarget: { host: '127.0.0.1', port: 9 }, allowedOrigins: [] });
    await bridge.start();
  });
  afterAll(async () => {
    await bridge?.close();
    touchDesigner?.close();
    resolume?.close();
  });

  it('sends the drum machine\'s beats to TouchDesigner and Resolume through the bridge, lists what went out, stops Resolume on Disconnect, and shows the output window Live', async () => {
    const page = chromium.page;
    await signInThroughKeycloak(page);
    await page.goto(`${BASE_URL}/app`);
    const sidebar = page.getByTestId('sidebar');
    await sidebar.getByRole('button', { name: 'Video & Visuals' }).click();
    const panel = page.getByTestId('sync-panel');
    await panel.waitFor();
    expect(await panel.getByTestId('osc-messages-empty').innerText()).toBe('Nothing has been sent yet: OSC output is off and Resolume is not connected.');
    expect(await panel.getByTestId('resolume-output-badge').innerText()).toBe('Disconnected');

    // TouchDesigner: the bridge's default route, found once OSC output is on.
    await panel.getByRole('button', { name: 'Turn on OSC output' }).click();
    await panel.locator('[data-testid="touchdesigner-status"][data-state="connected"]').waitFor({ timeout: 15_000 });
    expect(await panel.getByTestId('touchdesigner-status').innerText()).toBe(`OSC bridge: connected → 127.0.0.1:${touchDesigner.port}`);
    expect(await panel.getByTestId('touchdesigner-output-badge').innerText()).toBe('Connected');

    // Resolume: a bad target is refused in words; the listener's is connected on the bridge's Resolume route.
    const resolumeInput = panel.getByLabel('Resolume OSC input');
    expect(await resolumeInput.inputValue()).toBe('127.0.0.1:7000');
    await resolumeInput.fill('127.0.0.1');
    await panel.getByTestId('resolume-toggle').click();
    await panel.getByText('Enter the OSC target as host:port, e.g. 127.0.0.1:7000').waitFor();
    await resolumeInput.fill(`127.0.0.1:${resolume.port}`);
    await panel.getByTestId('resolume-toggle').click();
    await panel.locator('[data-testid="resolume-status"][data-state="connected"]').waitFor({ timeout: 15_000 });
    expect(await panel.getByTestId('resolume-status').innerText()).toBe(`Resolume: connected → 127.0.0.1:${resolume.port}`);
    expect(await panel.getByTestId('resolume-toggle').innerText()).toBe('Disconnect');
    expect(await panel.getByTestId('osc-messages-empty').innerText()).toMatch(/^Nothing has been sent yet: nothing is playing\./);
    expect(touchDesigner.messages).toEqual([]);
    expect(resolume.messages).toEqual([]);

    // The drum machine plays on while the sync panel is shown.
    await sidebar.getByRole('button', { name: 'Create Music' }).click();
    await page.getByRole('button', { name: 'Play Pattern' }).click();
    await page.getByRole('button', { name: 'Stop Pattern' }).waitFor();
    await sidebar.getByRole('button', { name: 'Video & Visuals' }).click();

    // At the listeners: the studio's own messages at TouchDesigner's, Resolume's addresses at Resolume's.
    const beat = await touchDesigner.waitFor('/stemdeck/beat', page);
    expect(beat.types).toMatch(/^,i[if]$/);
    expect(beat.args[1]).toBeCloseTo(DRUM_BPM, 3);
    const tempo = await resolume.waitFor('/composition/tempocontroller/tempo', page);
    expect(tempo.types).toBe(',f');
    expect(tempo.args[0]).toBeCloseTo(RESOLUME_TEMPO_120, 6);
    expect(await resolume.waitFor('/composition/tempocontroller/resync', page)).toEqual({ address: '/composition/tempocontroller/resync', types: ',i', args: [1] });
    await touchDesigner.waitFor('/stemdeck/transport', page);

    // In the list: both routes, newest first, at most 10, each one a message that arrived.
    const rows = panel.getByTestId('osc-message');
    await panel.locator('[data-testid="osc-message"][data-route="default"][data-address="/stemdeck/beat"]').first().waitFor({ timeout: 10_000 });
    await panel.locator('[data-testid="osc-message"][data-route="resolume"]').first().waitFor({ timeout: 10_000 });
    await page.waitForTimeout(3_000); // long enough to fill the list with beats
    await rows.nth(9).waitFor({ timeout: 10_000 });
    const listed = await rows.evaluateAll((elements) =>
      elements.map((element) => {
        const cell = (name: string) => (element.querySelector(`[data-testid="osc-message-${name}"]`) as HTMLElement | null)?.innerText ?? '';
        return { route: element.getAttribute('data-route'), address: cell('address'), args: cell('args'), time: cell('time'), shownRoute: cell('route') };
      }),
    );
    expect(listed).toHaveLength(10);
    for (const row of listed) {
      const listener = row.route === 'resolume' ? resolume : touchDesigner;
      expect(listener.addresses()).toContain(row.address);
      expect(row.shownRoute).toBe(row.route === 'resolume' ? 'Resolume' : 'TouchDesigner');
      expect(row.time).toMatch(/^\d\d:\d\d:\d\d\.\d{3}$/);
    }
    const beatNumbers = listed.filter((row) => row.address === '/stemdeck/beat').map((row) => Number(/^(\d+) 120$/.exec(row.args)?.[1]));
    expect(beatNumbers.length).toBeGreaterThan(2);
    expect(beatNumbers.every(Number.isInteger)).toBe(true);
    expect(beatNumbers).toEqual([...beatNumbers].sort((a, b) => b - a)); // newest first
    const times = listed.map((row) => row.time);
    expect(times).toEqual([...times].sort().reverse());
    expect(listed.filter((row) => row.address === '/composition/tempocontroller/resync').every((row) => row.args === '1')).toBe(true);
    // Nothing crossed over: no /stemdeck message at Resolume's listener, no Resolume address at TouchDesigner's.
    expect([...resolume.addresses()].sort()).toEqual(['/composition/tempocontroller/resync', '/composition/tempocontroller/tempo']);
    expect([...touchDesigner.addresses()].every((address) => address.startsWith('/stemdeck/'))).toBe(true);
    await expectReadable(rows.first().getByTestId('osc-message-address'));
    await expectReadable(rows.first().getByTestId('osc-message-args'));
    await expectReadable(panel.locator('[data-testid="osc-message"][data-route="resolume"]').first().getByTestId('osc-message-address'));
    await expectReadable(panel.locator('[data-testid="osc-message"][data-route="resolume"]').first().getByTestId('osc-message-route'));

    // Disconnect: Resolume hears nothing more (two bars at 120 BPM would have brought two resyncs), TouchDesigner still does.
    await panel.getByTestId('resolume-toggle').click();
    await panel.locator('[data-testid="resolume-status"][data-state="off"]').waitFor();
    expect(await panel.getByTestId('resolume-output-badge').innerText()).toBe('Disconnected');
    await page.waitForTimeout(300); // a message already in flight
    const resolumeCount = resolume.messages.length;
    const touchDesignerCount = touchDesigner.messages.length;
    await page.waitForTimeout(4_000);
    expect(resolume.messages.length).toBe(resolumeCount);
    expect(touchDesigner.messages.length).toBeGreaterThanOrEqual(touchDesignerCount + 6);
    const latest = await rows.evaluateAll((elements) => elements.slice(0, 6).map((element) => element.getAttribute('data-route')));
    expect(latest).toEqual(Array(6).fill('default'));

    await sidebar.getByRole('button', { name: 'Create Music' }).click();
    await page.getByRole('button', { name: 'Stop Pattern' }).click();
    await page.getByRole('button', { name: 'Play Pattern' }).waitFor();
    await sidebar.getByRole('button', { name: 'Video & Visuals' }).click();

    // Browser output: Standby, Live while the window it opens is there, Standby again once it is closed.
    const outputStatus = panel.getByTestId('browser-output-status');
    expect(await outputStatus.getAttribute('data-state')).toBe('standby');
    expect(await outputStatus.innerText()).toBe('Standby: no output window open');
    const [output] = await Promise.all([page.context().waitForEvent('page'), panel.getByRole('button', { name: 'Open output window' }).click()]);
    await output.waitForLoadState();
    expect(new URL(output.url()).pathname).toBe('/output');
    await panel.locator('[data-testid="browser-output-status"][data-state="live"]').waitFor({ timeout: 10_000 });
    expect(await outputStatus.innerText()).toBe('Live: 1 output window open');
    expect(await panel.getByTestId('browser-output-badge').innerText()).toBe('Live');
    await expectReadable(outputStatus);
    await output.close();
    await panel.locator('[data-testid="browser-output-status"][data-state="standby"]').waitFor({ timeout: 10_000 });
    expect(await panel.getByTestId('browser-output-badge').innerText()).toBe('Standby');

    // A second page of this browser opened at /output by hand counts too.
    const second = await page.context().newPage();
    await second.goto(`${BASE_URL}/output`);
    await panel.locator('[data-testid="browser-output-status"][data-state="live"]').waitFor({ timeout: 10_000 });
    await second.close();
    await panel.locator('[data-testid="browser-output-status"][data-state="standby"]').waitFor({ timeout: 10_000 });
  });
});
