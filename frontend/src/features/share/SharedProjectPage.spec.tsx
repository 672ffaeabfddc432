/** @jest-environment jsdom */
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { installFakeFetch } from '../../api/testing/fakeFetch.harness';
import { createStore } from '../../app/store';
import type { SharedProject } from './shareApi';
import { LINK_GONE, SharedProjectPage } from './SharedProjectPage';

const SHARED: SharedProject = {
  name: 'Night Drive',
  duration: 185,
  bpm: 124.2,
  key: 'F♯ minor',
  analysis: {
    loudnessLufs: -8.94,
    spotifyFeatures: { danceability: 0.7, energy: 0.8, valence: 0.4, acousticness: 0.1, instrumentalness: 0.5, liveness: 0.2, speechiness: 0.05, loudness: -9, tempo: 124.2, key: 6, mode: 0, time_signature: 4, duration_ms: 185_000 },
  },
  stems: [
    { id: 'v', type: 'vocals', volume: -6, muted: false, soloed: false, url: '/api/share/tok/stems/v/audio' },
    { id: 'd', type: 'drums', volume: 0, muted: false, soloed: false, url: '/api/share/tok/stems/d/audio' },
    { id: 'b', type: 'bass', volume: 0, muted: true, soloed: false, url: '/api/share/tok/stems/b/audio' },
    { id: 'o', type: 'other', volume: 2.5, muted: false, soloed: false, url: '/api/share/tok/stems/o/audio' },
  ],
  expiresAt: null,
};

let server: ReturnType<typeof installFakeFetch>;
beforeEach(() => (server = installFakeFetch()));
afterEach(() => server.restore());

async function openLink(token = 'tok') {
  await act(async () =>
    void render(
      <Provider store={createStore()}>
        <ChakraProvider value={defaultSystem}>
          <SharedProjectPage token={token} />
        </ChakraProvider>
      </Provider>,
    ),
  );
}

describe('the public share page', () => {
  it.each([
    ['revoked or expired', 410],
    ['never issued', 404],
  ])('says the link is gone when it is %s (%i)', async (_case, status) => {
    server.answer('GET', '/api/share/tok', { status, body: { message: LINK_GONE } });
    await openLink();
    await waitFor(() => expect(screen.getByTestId('share-gone')).toBeTruthy());
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('This link is no longer available');
    expect(screen.queryByTestId('shared-play')).toBeNull();
  });

  it('does not call a server failure a gone link', async () => {
    server.answer('GET', '/api/share/tok', { status: 503, body: { message: 'Service unavailable' } });
    await openLink();
    await waitFor(() => expect(screen.getByTestId('share-unreadable')).toBeTruthy());
    expect(screen.queryByText(LINK_GONE)).toBeNull();
  });

  it("shows the title, tempo and key, the analysis and each stem's place in the owner's mix", async () => {
    server.answer('GET', '/api/share/tok', { status: 200, body: SHARED });
    await openLink();
    await waitFor(() => expect(screen.getByTestId('shared-title').textContent).toBe('Night Drive'));
    expect(screen.getByTestId('shared-summary').textContent).toBe('3:05 · 124 BPM · F♯ minor');
    expect(screen.getByTestId('analysis-key-value').textContent).toBe('F♯ minor');
    expect(screen.getByTestId('analysis-loudness-value').textContent).toBe('-8.9 LUFS');
    expect(screen.getByTestId('shared-stem-vocals').textContent).toBe('Vocals-6.0 dB');
    expect(screen.getByTestId('shared-stem-bass').textContent).toBe('BassMuted');
    expect(screen.getByTestId('shared-stem-other').textContent).toBe('Other+2.5 dB');
    expect(screen.getByTestId('shared-position').textContent).toBe('0:00 / 3:05');
    // jsdom has no Web Audio: the player says so instead of pretending to play.
    await waitFor(() => expect(screen.getByTestId('shared-load-failed')).toBeTruthy());
    expect((screen.getByTestId('shared-play') as HTMLButtonElement).disabled).toBe(true);
    expect(server.sent.map((request) => request.path)).toEqual(['/api/share/tok']);
  });

  it('dashes the analysis of a shared project that has none', async () => {
    server.answer('GET', '/api/share/tok', { status: 200, body: { ...SHARED, analysis: null, bpm: null, key: null } });
    await openLink();
    await waitFor(() => expect(screen.getByTestId('shared-title')).toBeTruthy());
    expect(screen.getByTestId('shared-summary').textContent).toBe('3:05');
    expect(screen.getByTestId('analysis-tempo-value').textContent).toBe('—');
    expect(screen.getByTestId('analysis-note').textContent).toBe('This project has no analysis.');
  });
});
