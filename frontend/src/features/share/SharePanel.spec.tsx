/** @jest-environment jsdom */
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import type { Project } from '../../api/mediaTypes';
import { installFakeFetch } from '../../api/testing/fakeFetch.harness';
import { createStore } from '../../app/store';
import { toaster } from '../../ui/toaster';
import { projectOpened } from '../project/projectSlice';
import type { ShareLinkRecord } from './shareApi';
import { SharePanel } from './SharePanel';

const PROJECT: Project = { id: 'p1', name: 'song', originalFile: 'song.wav', duration: 40, bpm: 98, key: 'A minor', source: 'audio', activeEngine: 'fast', createdAt: '2026-11-23T16:00:00.000Z' };
const link = (id: string, over: Partial<ShareLinkRecord> = {}): ShareLinkRecord => ({ id, projectId: 'p1', status: 'active', createdAt: '2026-11-23T16:00:00.000Z', expiresAt: null, revokedAt: null, ...over });

let server: ReturnType<typeof installFakeFetch>;
let toasts: Array<{ title?: unknown; description?: unknown }>;
let copied: string[];

beforeEach(() => {
  server = installFakeFetch();
  toasts = [];
  jest.spyOn(toaster, 'create').mockImplementation((toast) => {
    toasts.push(toast);
    return 'toast';
  });
  copied = [];
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void copied.push(text) } });
});
afterEach(() => {
  server.restore();
  jest.restoreAllMocks();
});

async function renderPanel(project: Project | null = PROJECT) {
  const store = createStore();
  if (project) store.dispatch(projectOpened(project));
  await act(async () =>
    void render(
      <Provider store={store}>
        <ChakraProvider value={defaultSystem}>
          <SharePanel />
        </ChakraProvider>
      </Provider>,
    ),
  );
}

const rows = () => screen.getAllByTestId('share-link').map((row) => [row.getAttribute('data-status'), row.textContent]);

describe('the Share panel', () => {
  it('makes a link with the chosen expiry, shows its address once with Copy, and lists it', async () => {
    server.answer('GET', '/api/projects/p1/share-links', { status: 200, body: [] }, { status: 200, body: [link('l1', { expiresAt: '2026-11-30T16:00:00.000Z' })] });
    await renderPanel();
    await waitFor(() => expect(screen.getByTestId('share-links-empty').textContent).toBe('No share links yet'));
    expect(Array.from((screen.getByLabelText('Link expires') as HTMLSelectElement).options).map((option) => option.text)).toEqual(['Never', '1 day', '7 days', '30 days']);
    fireEvent.change(screen.getByLabelText('Link expires'), { target: { value: '7' } });
    server.answer('POST', '/api/projects/p1/share-links', { status: 201, body: { ...link('l1', { expiresAt: '2026-11-30T16:00:00.000Z' }), token: 'tok_abc', url: '/s/tok_abc' } });
    await act(async () => void fireEvent.click(screen.getByTestId('create-share-link')));
    await waitFor(() => expect(screen.getByTestId('share-url')).toBeTruthy());
    expect(server.sent.find((request) => request.method === 'POST')?.body).toEqual({ expiresInDays: 7 });
    expect((screen.getByTestId('share-url') as HTMLInputElement).value).toBe(`${window.location.origin}/s/tok_abc`);
    expect(screen.getByTestId('share-url-note').textContent).toMatch(/shown only once/);
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]![0]).toBe('active');
    expect(rows()[0]![1]).toContain('Active');
    expect(rows()[0]![1]).toContain('2026');

    await act(async () => void fireEvent.click(screen.getByTestId('copy-share-link')));
    expect(copied).toEqual([`${window.location.origin}/s/tok_abc`]);
    expect(toasts.at(-1)).toMatchObject({ title: 'Copied' });
  });

  it('sends no expiry for "Never"', async () => {
    server.answer('GET', '/api/projects/p1/share-links', { status: 200, body: [] });
    server.answer('POST', '/api/projects/p1/share-links', { status: 201, body: { ...link('l1'), token: 't', url: 'http://elsewhere.example/s/t' } });
    await renderPanel();
    await act(async () => void fireEvent.click(screen.getByTestId('create-share-link')));
    await waitFor(() => expect(screen.getByTestId('share-url')).toBeTruthy());
    expect(server.sent.find((request) => request.method === 'POST')?.body).toEqual({ expiresInDays: null });
    expect((screen.getByTestId('share-url') as HTMLInputElement).value).toBe('http://elsewhere.example/s/t');
  });

  it('lists every link newest first with its status; only active ones can be revoked, and revoking refreshes the list', async () => {
    const links = [
      link('old', { createdAt: '2026-11-01T10:00:00.000Z', status: 'expired', expiresAt: '2026-11-02T10:00:00.000Z' }),
      link('new', { createdAt: '2026-11-23T10:00:00.000Z' }),
      link('mid', { createdAt: '2026-11-10T10:00:00.000Z', status: 'revoked', revokedAt: '2026-11-11T10:00:00.000Z' }),
    ];
    server.answer('GET', '/api/projects/p1/share-links', { status: 200, body: links }, { status: 200, body: links.map((l) => (l.id === 'new' ? { ...l, status: 'revoked', revokedAt: '2026-11-23T11:00:00.000Z' } : l)) });
    await renderPanel();
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows().map(([status]) => status)).toEqual(['active', 'revoked', 'expired']);
    expect(rows()[0]![1]).toContain('Never');
    expect(screen.getAllByTestId('revoke-share-link')).toHaveLength(1);
    server.answer('DELETE', '/api/share-links/new', { status: 200, body: { ...links[1], status: 'revoked' } });
    await act(async () => void fireEvent.click(screen.getByTestId('revoke-share-link')));
    await waitFor(() => expect(rows().map(([status]) => status)).toEqual(['revoked', 'revoked', 'expired']));
    expect(screen.queryAllByTestId('revoke-share-link')).toHaveLength(0);
    expect(toasts.at(-1)).toMatchObject({ title: 'Link revoked' });
  });

  it('cannot make a link without a project', async () => {
    await renderPanel(null);
    expect((screen.getByTestId('create-share-link') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByTestId('share-links')).toBeNull();
  });
});
