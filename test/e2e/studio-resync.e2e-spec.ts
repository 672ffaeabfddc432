import type { Page, WebSocketRoute } from 'playwright-core';
import { chromiumPerTest, signInThroughKeycloak } from '../support/browser';
import { BASE_URL } from '../support/env';
import { makeClip } from '../support/media';
import { uploadThroughChooser, waitForStems } from '../support/studio';

jest.setTimeout(180_000);

const STEM_EVENTS = new Set(['stems_progress', 'stems_partial', 'stems_ready', 'stems_failed']);

/**
 * Puts the page's /ws through a relay that withholds every stem event from the server (the worst case of
 * missed events), and while `refusing` closes every new connection at once (the socket is down);
 * counts connections and withheld events.
 */
async function relayWithoutStemEvents(page: Page) {
  const relay = { connections: [] as WebSocketRoute[], withheld: 0, refused: 0, refusing: false };
  await page.routeWebSocket(/\/ws$/, (socket) => {
    if (relay.refusing) {
      relay.refused++;
      return socket.close({ code: 1011, reason: 'relay down' });
    }
    relay.connections.push(socket);
    const server = socket.connectToServer();
    server.onMessage((message) => {
      const type = (JSON.parse(String(message)) as { type?: string }).type ?? '';
      if (STEM_EVENTS.has(type)) relay.withheld++;
      else socket.send(message);
    });
  });
  return relay;
}

describe('the studio converges on the server after missed live events', () => {
  const chromium = chromiumPerTest({ width: 1440, height: 900 });

  it('shows the four stems although the socket was down through the upload and separation and no stem event ever arrived; a reprocess finishes the same way', async () => {
    const page = chromium.page;
    await signInThroughKeycloak(page);
    const relay = await relayWithoutStemEvents(page);
    await page.goto(`${BASE_URL}/app`);
    await page.getByTestId('upload-panel').waitFor();
    await page.locator('[data-testid="status-apis"][data-state="connected"]').first().waitFor();
    expect(relay.connections).toHaveLength(1);

    // The socket drops as the upload starts and stays down (reconnects refused) through the separation.
    await page.route('**/api/upload', async (route) => {
      relay.refusing = true;
      relay.connections[0]!.close();
      await route.continue();
    });
    await uploadThroughChooser(page, makeClip('e2e-resync-20s.mp3', 20, { codecArgs: ['-b:a', '128k'] }));
    await waitForStems(page);
    await page.getByText('Stem mixer · fast engine').waitFor();
    expect(relay.connections).toHaveLength(1);

    // The socket comes back; stem events stay withheld.
    relay.refusing = false;
    await page.locator('[data-testid="status-apis"][data-state="connected"]').first().waitFor({ timeout: 15_000 });
    expect(relay.connections).toHaveLength(2);

    // Reprocess with the hybrid engine: its progress and readiness events are withheld too, so only
    // asking the server while the job runs quietly brings its stems in.
    const withheldBefore = relay.withheld;
    await page.getByLabel('Separation engine').selectOption('hybrid');
    await page.getByRole('button', { name: 'Reprocess' }).click();
    await page.getByText('Stem mixer · hybrid engine').waitFor({ timeout: 60_000 });
    await waitForStems(page);
    expect(await page.getByTestId('quality-vocals').innerText()).toBe('engine: hybrid');
    await page.getByTestId('separation-hybrid').waitFor({ state: 'detached' });
    expect(relay.withheld).toBeGreaterThan(withheldBefore);
  });
});
