/** @jest-environment jsdom */
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ChatMessage, Participant } from '@stemdeck/proto';
import { Provider } from 'react-redux';
import { installFakeFetch } from '../../api/testing/fakeFetch.harness';
import { createStore } from '../../app/store';
import { toaster } from '../../ui/toaster';
import { ChatPanel } from './ChatPanel';
import { ParticipantsPanel } from './ParticipantsPanel';

// The session audio (Tone.js, Web Audio) has no place in jsdom; these panels only use the toasts beside it.
jest.mock('./audio', () => ({ playCollaborationPad: jest.fn(), SessionClock: jest.fn(), SessionPlayer: jest.fn() }));

const NOW = Date.parse('2026-11-24T10:00:00.000Z');
const person = (userId: string, name: string, role: Participant['role'], isOnline: boolean, minutesAgo = 0): Participant => ({
  id: `p-${userId}`,
  sessionId: 's1',
  userId,
  name,
  role,
  isOnline,
  lastActive: new Date(NOW - minutesAgo * 60_000).toISOString(),
});
const message = (id: string, text: string, userId = 'u2', name = 'rival'): ChatMessage => ({ id, sessionId: 's1', userId, name, message: text, type: 'text', createdAt: `2026-11-24T09:0${id.slice(-1)}:00.000Z` });

// The host's menu positions itself with ResizeObserver, which jsdom lacks.
class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
Object.assign(globalThis, { ResizeObserver: globalThis.ResizeObserver ?? NoResizeObserver });

let server: ReturnType<typeof installFakeFetch>;
let toasts: Array<{ title?: unknown; description?: unknown }>;
beforeEach(() => {
  server = installFakeFetch();
  toasts = [];
  jest.spyOn(toaster, 'create').mockImplementation((toast) => {
    toasts.push(toast);
    return 'toast';
  });
});
afterEach(() => {
  server.restore();
  jest.restoreAllMocks();
  jest.useRealTimers();
});

function wrap(children: React.ReactNode) {
  return (
    <Provider store={createStore()}>
      <ChakraProvider value={defaultSystem}>{children}</ChakraProvider>
    </Provider>
  );
}

describe('ParticipantsPanel', () => {
  const people = [
    person('v-off', 'vera', 'viewer', false, 125),
    person('c-off', 'cole', 'collaborator', false, 0.5),
    person('c-on', 'rival', 'collaborator', true),
    person('me', 'demo', 'host', true),
    person('v-on', 'vic', 'viewer', true),
    person('c-old', 'cara', 'collaborator', false, 7),
  ];
  const setup = (isHost: boolean, muted: string[] = []) => {
    jest.useFakeTimers({ now: NOW });
    const calls = { mute: [] as string[], remove: [] as string[], role: [] as string[] };
    render(
      wrap(
        <ParticipantsPanel
          participants={people}
          selfUserId="me"
          isHost={isHost}
          mutedUsers={new Set(muted)}
          onToggleMute={(userId) => calls.mute.push(userId)}
          onRemove={(p) => calls.remove.push(p.userId)}
          onSetRole={(p, role) => calls.role.push(`${p.userId}:${role}`)}
        />,
      ),
    );
    return calls;
  };
  const rows = () => screen.getAllByTestId('participant');
  const row = (userId: string) => within(rows().find((r) => r.getAttribute('data-user-id') === userId)!);

  it('lists the host first, then those online, then by role; names, roles and last-active times', () => {
    setup(false);
    expect(rows().map((r) => r.getAttribute('data-user-id'))).toEqual(['me', 'c-on', 'v-on', 'c-old', 'c-off', 'v-off']);
    expect(screen.getAllByTestId('participant-name').map((n) => n.textContent)).toEqual(['demo (you)', 'rival', 'vic', 'cara', 'cole', 'vera']);
    expect(screen.getAllByTestId('participant-presence').map((n) => n.textContent)).toEqual(['Online', 'Online', 'Online', '7m ago', 'Just now', '2h ago']);
    expect(screen.getAllByTestId('participant-role').map((n) => n.textContent)).toEqual(['Host', 'Collaborator', 'Viewer', 'Collaborator', 'Collaborator', 'Viewer']);
    expect(screen.getByText('Participants (6)')).toBeTruthy();
  });

  it('offers mute only for others online who play (host, collaborators); viewers show a lock', () => {
    const calls = setup(false, ['c-on']);
    expect(screen.getAllByTestId('participant-mute').map((b) => b.getAttribute('aria-label'))).toEqual(['Unmute rival']);
    expect(row('c-on').getByTestId('participant-mute').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getAllByTestId('participant-viewer-lock')).toHaveLength(2);
    expect(row('v-on').getByLabelText('Viewer: listens and chats')).toBeTruthy();
    fireEvent.click(row('c-on').getByTestId('participant-mute'));
    expect(calls.mute).toEqual(['c-on']);
    // Without being the host there is no menu on anyone.
    expect(screen.queryAllByTestId('participant-actions')).toHaveLength(0);
  });

  it("gives the host a menu on everyone else but the host: Make Viewer or Make Collaborator, and remove", async () => {
    jest.useRealTimers();
    const panel = () => wrap(<ParticipantsPanel participants={people} selfUserId="me" isHost mutedUsers={new Set()} onToggleMute={() => undefined} onRemove={() => undefined} onSetRole={() => undefined} />);
    const first = render(panel());
    expect(screen.getAllByTestId('participant-actions').map((b) => b.getAttribute('aria-label'))).toEqual(['Actions for rival', 'Actions for vic', 'Actions for cara', 'Actions for cole', 'Actions for vera']);
    // Each menu offers the role the person does not have, and removal (choosing them is covered end to end). Each
    // menu is looked at in a panel of its own: closing one runs its exit animation, which a busy machine drags out.
    fireEvent.click(screen.getByLabelText('Actions for rival'));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['Make Viewer', 'Remove from session']);
    first.unmount();
    render(panel());
    fireEvent.click(screen.getByLabelText('Actions for vic'));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['Make Collaborator', 'Remove from session']);
  });
});

describe('ChatPanel', () => {
  const renderChat = async (live: ChatMessage[] = []) => {
    const posted: ChatMessage[] = [];
    await act(async () => void render(wrap(<ChatPanel sessionId="s1" selfUserId="me" live={live} onPosted={(m) => posted.push(m)} />)));
    return posted;
  };
  const input = () => screen.getByTestId('chat-input') as HTMLInputElement;
  const send = () => screen.getByTestId('chat-send') as HTMLButtonElement;

  it('shows the stored chat with the live messages, once each, oldest first, as text', async () => {
    server.answer('GET', '/api/sessions/s1/messages', { status: 200, body: [message('m1', 'first'), message('m2', '<img src=x onerror=alert(1)>')] });
    await renderChat([message('m2', '<img src=x onerror=alert(1)>'), message('m3', 'live one', 'me', 'demo')]);
    await waitFor(() => expect(screen.getAllByTestId('chat-message-text').map((m) => m.textContent)).toEqual(['first', '<img src=x onerror=alert(1)>', 'live one']));
    expect(screen.getByTestId('chat-messages').querySelector('img')).toBeNull();
    expect(screen.getAllByTestId('chat-message').map((m) => m.querySelector('p')!.textContent)).toEqual(['rival', 'rival', 'You']);
  });

  it('counts characters against 500, sends the trimmed message with Enter, and is disabled while empty or sending', async () => {
    server.answer('GET', '/api/sessions/s1/messages', { status: 200, body: [] });
    server.answer('POST', '/api/sessions/s1/messages', { status: 201, body: message('m9', 'hello there', 'me', 'demo') });
    const posted = await renderChat();
    expect(screen.getByTestId('chat-counter').textContent).toBe('0/500 characters');
    expect(send().disabled).toBe(true);
    expect(input().maxLength).toBe(500);
    fireEvent.change(input(), { target: { value: '   ' } });
    expect(send().disabled).toBe(true);
    fireEvent.change(input(), { target: { value: '  hello there ' } });
    expect(screen.getByTestId('chat-counter').textContent).toBe('14/500 characters');
    expect(send().disabled).toBe(false);
    server.hold('POST', '/api/sessions/s1/messages');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(send().disabled).toBe(true)); // pending
    await act(async () => server.release('POST', '/api/sessions/s1/messages'));
    await waitFor(() => expect(input().value).toBe(''));
    expect(server.sent.filter((r) => r.method === 'POST')).toEqual([{ method: 'POST', path: '/api/sessions/s1/messages', body: { userId: 'me', message: 'hello there', type: 'text' } }]);
    expect(posted.map((m) => m.id)).toEqual(['m9']);
  });

  it("keeps the text and says so when sending fails (the server's words after the product's)", async () => {
    server.answer('GET', '/api/sessions/s1/messages', { status: 200, body: [] });
    server.answer('POST', '/api/sessions/s1/messages', { status: 429, body: { message: 'You are sending messages too fast. Wait a few seconds and try again.' } });
    await renderChat();
    fireEvent.change(input(), { target: { value: 'again' } });
    await act(async () => void fireEvent.click(send()));
    await waitFor(() => expect(toasts).toHaveLength(1));
    expect(toasts[0]).toMatchObject({ title: 'Error sending message', description: 'Failed to send message: You are sending messages too fast. Wait a few seconds and try again.' });
    expect(input().value).toBe('again');
  });
});
