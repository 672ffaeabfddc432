/** @jest-environment jsdom */
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { LiveSessionState, Participant, Session } from '@stemdeck/proto';
import { Provider } from 'react-redux';
import { installFakeFetch } from '../../api/testing/fakeFetch.harness';
import { createStore } from '../../app/store';
import { toaster } from '../../ui/toaster';
import { liveStatusChanged } from '../live/liveSlice';
import type { LiveServerMessage } from '../live/liveConnection';
import type { LiveChannel } from '../live/useLiveConnection';
import { PAD_PRESS_HIGHLIGHT_MS, REMOTE_PAD_PULSE_MS } from '@stemdeck/proto/vocabulary';
import { playCollaborationPad } from './audio';
import { CollaboratePage } from './CollaboratePage';

jest.mock('./audio', () => ({
  playCollaborationPad: jest.fn(() => Promise.resolve(true)),
  SessionClock: jest.fn().mockImplementation(() => ({ start: jest.fn(), stop: jest.fn(), dispose: jest.fn(), onPong: jest.fn() })),
  SessionPlayer: jest.fn().mockImplementation(() => ({ load: jest.fn(() => Promise.resolve(true)), applyMix: jest.fn(), follow: jest.fn(), position: () => 0, setMasterVolume: jest.fn(), dispose: jest.fn(), lastStartWallMs: null })),
}));
// The page's /ws connection: a fake channel that records what is sent (the status comes from the store).
const sent: unknown[] = [];
const listeners = new Set<(message: LiveServerMessage) => void>();
const channel: LiveChannel = {
  send: (message) => (sent.push(message), true),
  subscribe: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
  connectionId: () => 'c1',
  saveStem: () => null,
};
/** A message from the gateway, as the page's live connection hands it over. */
const receive = (message: LiveServerMessage) => act(() => listeners.forEach((listener) => listener(message)));
jest.mock('../live/useLiveConnection', () => ({ useLiveConnection: () => channel }));
// React Router needs a browser's TextEncoder: the page's address (an invite's ?session=) is given here instead.
let mockSearch = '';
const mockSetSearch = jest.fn(() => void (mockSearch = ''));
jest.mock('react-router', () => ({ Link: () => null, useSearchParams: () => [new URLSearchParams(mockSearch), mockSetSearch] }));

class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
// The dialogs' focus trap escapes ids with CSS.escape, which jsdom lacks (ids here need no escaping).
Object.assign(globalThis, { ResizeObserver: globalThis.ResizeObserver ?? NoResizeObserver, CSS: globalThis.CSS ?? { escape: (text: string) => text } });

const USER = { id: 'u-demo', email: 'demo@example.com', firstName: 'Demo', lastName: 'User', profileImageUrl: null };
const SESSION: Session = { id: 's1', name: 'Friday Jam', projectId: 'p1', projectName: 'song', hostUserId: 'u-demo', hostName: 'demo', maxParticipants: 8, isActive: true, participantCount: 3, createdAt: '2026-11-24T00:00:00.000Z' };

let server: ReturnType<typeof installFakeFetch>;
let toasts: Array<{ title?: unknown; description?: unknown }>;
beforeEach(() => {
  sent.length = 0;
  listeners.clear();
  server = installFakeFetch();
  server.answer('GET', '/api/auth/user', { status: 200, body: USER });
  server.answer('GET', '/api/projects', { status: 200, body: [{ id: 'p1', name: 'song', originalFile: 'song.wav', duration: 30, bpm: 120, key: null, source: 'audio', activeEngine: 'fast', createdAt: '2026-11-24T00:00:00.000Z' }] });
  toasts = [];
  jest.spyOn(toaster, 'create').mockImplementation((toast) => {
    toasts.push(toast);
    return 'toast';
  });
});
afterEach(() => {
  jest.useRealTimers();
  server.restore();
  jest.restoreAllMocks();
});

async function renderPage({ sessions = [] as Session[], connected = false, search = '' } = {}) {
  mockSearch = search;
  server.answer('GET', '/api/users/u-demo/sessions', { status: 200, body: sessions });
  const store = createStore();
  if (connected) store.dispatch(liveStatusChanged('connected'));
  await act(async () =>
    void render(
      <Provider store={store}>
        <ChakraProvider value={defaultSystem}>
          <CollaboratePage />
        </ChakraProvider>
      </Provider>,
    ),
  );
  return store;
}

describe('CollaboratePage', () => {
  it('is titled Collaborate with the connection badge; without sessions it says so and offers to create the first', async () => {
    await renderPage();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Collaborate');
    expect(screen.getByTestId('connection-badge').textContent).toBe('Disconnected');
    expect(screen.getByText('Collaborative Sessions')).toBeTruthy();
    expect(screen.getByText('Create or join real-time music sessions')).toBeTruthy();
    await screen.findByText('No sessions yet');
    expect(screen.getByRole('button', { name: 'Create Your First Session' })).toBeTruthy();
    expect((screen.getByRole('tab', { name: 'Live Session' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('tab', { name: 'Audio Control' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows Connected while the live connection is up', async () => {
    await renderPage({ connected: true });
    expect(screen.getByTestId('connection-badge').textContent).toBe('Connected');
  });

  it('lists session cards: name, date, Active or Inactive, N / max participants; a card opens its participants, Join and (for the host) leave', async () => {
    server.answer('GET', '/api/sessions/s1/participants', {
      status: 200,
      body: [{ id: 'x', sessionId: 's1', userId: 'u-demo', name: 'demo', role: 'host', isOnline: true, lastActive: '2026-11-24T00:00:00.000Z' }],
    });
    await renderPage({ sessions: [SESSION, { ...SESSION, id: 's2', name: 'Old Jam', isActive: false, hostUserId: 'u-x', hostName: 'x', createdAt: '2026-11-23T00:00:00.000Z' }] });
    const cards = await screen.findAllByTestId('session-card');
    expect(cards.map((card) => within(card).getByTestId('session-card-name').textContent)).toEqual(['Friday Jam', 'Old Jam']);
    expect(cards.map((card) => within(card).getByTestId('session-card-status').textContent)).toEqual(['Active', 'Inactive']);
    expect(within(cards[0]!).getByTestId('session-card-count').textContent).toContain('3 / 8 participants');
    fireEvent.click(within(cards[0]!).getByRole('button', { expanded: false }));
    await within(cards[0]!).findByTestId('session-card-participants');
    expect(within(cards[0]!).getByTestId('session-card-join').textContent).toContain('Join');
    expect(within(cards[0]!).getByTestId('session-card-end')).toBeTruthy();
    fireEvent.click(within(cards[1]!).getByRole('button', { expanded: false }));
    expect(within(cards[1]!).queryByTestId('session-card-end')).toBeNull(); // not the host there
    expect((within(cards[1]!).getByTestId('session-card-join') as HTMLButtonElement).disabled).toBe(true); // inactive
  });

  it("refuses to join without the live connection: 'Connection Error'", async () => {
    await renderPage({ sessions: [SESSION] });
    const card = await screen.findByTestId('session-card');
    fireEvent.click(within(card).getByRole('button', { expanded: false }));
    fireEvent.click(within(card).getByTestId('session-card-join'));
    expect(toasts).toEqual([expect.objectContaining({ title: 'Connection Error', description: 'WebSocket connection is not available' })]);
    expect(server.sent.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('creates a session: the fields and their checks, Creating..., then the toast and the live room entered', async () => {
    server.answer('POST', '/api/sessions', { status: 201, body: SESSION });
    await renderPage({ connected: true });
    fireEvent.click(screen.getByTestId('open-create-session'));
    const dialog = await screen.findByTestId('create-session-dialog');
    expect(within(dialog).getByPlaceholderText('My Awesome Session')).toBeTruthy();
    expect((within(dialog).getByTestId('session-max-input') as HTMLInputElement).value).toBe('8');
    fireEvent.change(within(dialog).getByTestId('session-max-input'), { target: { value: '17' } });
    fireEvent.click(within(dialog).getByTestId('create-session-submit'));
    expect(within(dialog).getByText('Session name is required')).toBeTruthy();
    expect(within(dialog).getByText('Project is required')).toBeTruthy();
    expect(within(dialog).getByText('Maximum participants can be at most 16')).toBeTruthy();
    fireEvent.change(within(dialog).getByPlaceholderText('My Awesome Session'), { target: { value: '  Friday Jam ' } });
    await waitFor(() => expect(within(dialog).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose a project', 'song']));
    fireEvent.change(within(dialog).getByTestId('session-project-select'), { target: { value: 'p1' } });
    fireEvent.change(within(dialog).getByTestId('session-max-input'), { target: { value: '4' } });
    server.hold('POST', '/api/sessions');
    fireEvent.click(within(dialog).getByTestId('create-session-submit'));
    await waitFor(() => expect(within(dialog).getByTestId('create-session-submit').textContent).toBe('Creating...'));
    await act(async () => server.release('POST', '/api/sessions'));
    await waitFor(() => expect(toasts.map((t) => t.title)).toEqual(['Session Created']));
    expect(toasts[0]!.description).toBe('Your collaborative session has been created successfully.');
    expect(server.sent.find((r) => r.method === 'POST')!.body).toEqual({ name: 'Friday Jam', projectId: 'p1', maxParticipants: 4, hostUserId: 'u-demo' });
    expect(sent).toEqual([{ type: 'join_session', sessionId: 's1' }]);
  });

  it("opens the join dialog from an invite link, joins by REST then enters the live room; a refusal is 'Failed to join session' with the reason", async () => {
    server.answer('POST', '/api/sessions/s9/join', { status: 409, body: { message: 'Session is full' } }, { status: 200, body: { session: { ...SESSION, id: 's9' }, participant: {} } });
    await renderPage({ connected: true, search: 'session=s9' });
    const dialog = await screen.findByTestId('join-session-dialog');
    expect((within(dialog).getByTestId('join-session-id') as HTMLInputElement).value).toBe('s9');
    fireEvent.click(within(dialog).getByTestId('join-session-submit'));
    await waitFor(() => expect(toasts).toEqual([expect.objectContaining({ title: 'Error', description: 'Failed to join session: Session is full' })]));
    expect(sent).toEqual([]);
    fireEvent.click(within(dialog).getByTestId('join-session-submit'));
    await waitFor(() => expect(sent).toEqual([{ type: 'join_session', sessionId: 's9' }]));
    expect(mockSetSearch).toHaveBeenCalledWith({}, { replace: true }); // the invite is used up
    expect(server.sent.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { userId: 'u-demo', role: 'collaborator' },
      { userId: 'u-demo', role: 'collaborator' },
    ]);
  });

  describe('in a session', () => {
    const person = (userId: string, name: string, role: Participant['role']): Participant => ({ id: `p-${userId}`, sessionId: 's1', userId, name, role, isOnline: true, lastActive: '2026-11-24T00:00:00.000Z' });
    const state = (role: Participant['role']): LiveSessionState => ({
      session: { ...SESSION, hostUserId: 'u-host', hostName: 'hank' },
      role,
      participants: [person('u-host', 'hank', 'host'), person('u-demo', 'demo', role)],
      mix: {},
      transport: { playing: false, position: 0, at: 0 },
      chat: [],
    });
    const enter = async (role: Participant['role']) => {
      server.answer('GET', '/api/sessions/s1/messages', { status: 200, body: [] });
      server.answer('GET', '/api/sessions/s1/stems', { status: 200, body: [{ id: 'st-v', projectId: 'p1', type: 'vocals', engine: 'fast', volume: 0, muted: false, url: '/api/sessions/s1/stems/st-v/audio' }] });
      await renderPage({ connected: true });
      await screen.findByText('No sessions yet'); // the signed-in user is known (the list is theirs)
      await receive({ type: 'session_joined', state: state(role), serverTime: 1 });
    };

    it('shows the session bar and the live tab; a remote pad hit pulses the pad and sounds; own presses are sent at velocity 127', async () => {
      await enter('collaborator');
      expect(screen.getByTestId('session-bar-name').textContent).toBe('Friday Jam');
      expect(screen.getByTestId('session-bar-role').textContent).toBe('Participant');
      expect(screen.getByTestId('session-bar-online').textContent).toBe('2 online');
      expect(screen.getByRole('tab', { name: 'Live Session' }).getAttribute('aria-selected')).toBe('true');
      expect(toasts.map((t) => t.title)).toEqual(['Joined Session']);
      const snare = screen.getByTestId('collab-pad-snare');
      // The pulse and the press light are timed: the clock is the test's, so a busy machine cannot run them out
      // before they are read.
      jest.useFakeTimers();
      await receive({ type: 'pad_triggered', sessionId: 's1', userId: 'u-host', pad: 'Snare', velocity: 127 });
      expect(snare.getAttribute('data-state')).toBe('remote');
      expect(snare.getAttribute('data-remote-hits')).toBe('1');
      expect(playCollaborationPad).toHaveBeenLastCalledWith('Snare', 127);
      act(() => void jest.advanceTimersByTime(REMOTE_PAD_PULSE_MS - 1));
      expect(snare.getAttribute('data-state')).toBe('remote');
      act(() => void jest.advanceTimersByTime(1));
      expect(snare.getAttribute('data-state')).toBe('idle');
      fireEvent.pointerDown(screen.getByTestId('collab-pad-kick'));
      expect(screen.getByTestId('collab-pad-kick').getAttribute('data-state')).toBe('pressed');
      act(() => void jest.advanceTimersByTime(PAD_PRESS_HIGHLIGHT_MS - 1));
      expect(screen.getByTestId('collab-pad-kick').getAttribute('data-state')).toBe('pressed');
      act(() => void jest.advanceTimersByTime(1));
      expect(screen.getByTestId('collab-pad-kick').getAttribute('data-state')).toBe('idle');
      expect(sent).toContainEqual({ type: 'audio_event', eventType: 'pad_trigger', eventData: { pad: 'Kick', velocity: 127 } });
    });

    it("does not sound a muted participant's pads (they still pulse)", async () => {
      await enter('collaborator');
      (playCollaborationPad as jest.Mock).mockClear();
      fireEvent.click(screen.getByRole('button', { name: 'Mute hank' }));
      expect(sent).toContainEqual({ type: 'audio_event', eventType: 'participant_mute', eventData: { targetUserId: 'u-host', muted: true } });
      jest.useFakeTimers(); // the 200 ms pulse is read before the test's clock moves
      await receive({ type: 'pad_triggered', sessionId: 's1', userId: 'u-host', pad: 'Crash', velocity: 127 });
      expect(screen.getByTestId('collab-pad-crash').getAttribute('data-state')).toBe('remote');
      expect(playCollaborationPad).not.toHaveBeenCalled();
    });

    it('keeps viewers from playing and mixing, and says why', async () => {
      await enter('viewer');
      expect(screen.getByTestId('pads-viewer-note').textContent).toContain('Viewers can listen and chat.');
      expect((screen.getByTestId('collab-pad-kick') as HTMLButtonElement).disabled).toBe(true);
      expect((screen.getByTestId('session-play') as HTMLButtonElement).disabled).toBe(true);
      fireEvent.click(screen.getByRole('tab', { name: 'Audio Control' }));
      const slider = (await screen.findByLabelText('Vocals volume')) as HTMLInputElement;
      expect(slider.disabled).toBe(true);
      expect(screen.getByTestId('session-role').textContent).toBe('Viewer');
    });

    it("applies another participant's stem change and says so ('Stem Updated'); one's own moves are sent as stem_update", async () => {
      await enter('collaborator');
      fireEvent.click(screen.getByRole('tab', { name: 'Audio Control' }));
      const slider = (await screen.findByLabelText('Vocals volume')) as HTMLInputElement;
      expect(slider.value).toBe('100');
      await receive({ type: 'stem_changed', sessionId: 's1', userId: 'u-host', stemId: 'st-v', property: 'volume', value: 0.35, mix: { volume: 0.35, muted: false } });
      expect(slider.value).toBe('35');
      expect(screen.getByTestId('session-stem-vocals-percent').textContent).toBe('35%');
      expect(toasts.at(-1)).toMatchObject({ title: 'Stem Updated', description: 'hank set Vocals to 35%.' });
      fireEvent.change(slider, { target: { value: '60' } });
      expect(sent).toContainEqual({ type: 'audio_event', eventType: 'stem_update', stemId: 'st-v', eventData: { property: 'volume', value: 0.6 } });
      fireEvent.click(screen.getByRole('button', { name: 'Mute Vocals' }));
      expect(sent).toContainEqual({ type: 'audio_event', eventType: 'stem_update', stemId: 'st-v', eventData: { property: 'muted', value: true } });
      expect(screen.getByTestId('session-id').textContent).toBe('s1');
      expect(screen.getByTestId('session-participant-count').textContent).toBe('2 / 8');
      expect((screen.getByTestId('invite-link') as HTMLInputElement).value).toBe('http://localhost/collaborate?session=s1');
    });

    it("copies the session ID ('Copied', 'Session ID copied to clipboard')", async () => {
      const writeText = jest.fn(() => Promise.resolve());
      Object.assign(navigator, { clipboard: { writeText } });
      await enter('collaborator');
      fireEvent.click(screen.getByRole('tab', { name: 'Audio Control' }));
      await act(async () => void fireEvent.click(await screen.findByTestId('copy-session-id')));
      expect(writeText).toHaveBeenCalledWith('s1');
      expect(toasts.at(-1)).toMatchObject({ title: 'Copied', description: 'Session ID copied to clipboard' });
    });

    it("shows 'No Active Session' with 'Browse Sessions' when the host ends the session", async () => {
      await enter('collaborator');
      await receive({ type: 'session_ended', sessionId: 's1' });
      expect(toasts.at(-1)).toMatchObject({ title: 'Left Session', description: 'The host ended the session.' });
      expect(screen.queryByTestId('session-bar')).toBeNull();
      expect(screen.getByText('No Active Session')).toBeTruthy();
      await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Browse Sessions' })));
      expect(screen.getByRole('tab', { name: 'Sessions' }).getAttribute('aria-selected')).toBe('true');
    });
  });
});
