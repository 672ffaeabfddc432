import type { ChatMessage, Participant, Session, Stem } from '@stemdeck/proto';
import { ensureRealmUser, keycloakAdminToken } from '@stemdeck/test-client';
import { BASE_URL_2, CSRF, KEYCLOAK_URL } from './env';
import { signIn, type SignedInAgent } from './sign-in';

const json = { ...CSRF, 'content-type': 'application/json' };
const send = (agent: SignedInAgent, method: string, path: string, body?: unknown) =>
  agent.fetch(path, { method, headers: body === undefined ? CSRF : json, body: body === undefined ? undefined : JSON.stringify(body) });

/** The REST calls of the Collaborate page, as a signed-in browser makes them (raw answers, for checking statuses). */
export const sessionsApi = {
  list: (agent: SignedInAgent, userId: string) => agent.fetch(`/api/users/${encodeURIComponent(userId)}/sessions`),
  create: (agent: SignedInAgent, body: unknown) => send(agent, 'POST', '/api/sessions', body),
  get: (agent: SignedInAgent, sessionId: string) => agent.fetch(`/api/sessions/${sessionId}`),
  participants: (agent: SignedInAgent, sessionId: string) => agent.fetch(`/api/sessions/${sessionId}/participants`),
  join: (agent: SignedInAgent, sessionId: string, body: unknown) => send(agent, 'POST', `/api/sessions/${sessionId}/join`, body),
  setRole: (agent: SignedInAgent, sessionId: string, userId: string, role: string) =>
    send(agent, 'PATCH', `/api/sessions/${sessionId}/participants/${encodeURIComponent(userId)}`, { role }),
  remove: (agent: SignedInAgent, sessionId: string, userId: string) => send(agent, 'DELETE', `/api/sessions/${sessionId}/participants/${encodeURIComponent(userId)}`),
  messages: (agent: SignedInAgent, sessionId: string) => agent.fetch(`/api/sessions/${sessionId}/messages`),
  post: (agent: SignedInAgent, sessionId: string, body: unknown) => send(agent, 'POST', `/api/sessions/${sessionId}/messages`, body),
  stems: (agent: SignedInAgent, sessionId: string) => agent.fetch(`/api/sessions/${sessionId}/stems`),
};

async function expectStatus<T>(response: Response, status: number, what: string): Promise<T> {
  if (response.status !== status) throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
  return (status === 204 ? undefined : await response.json()) as T;
}

/** Makes a session on one of the host's projects (201) and answers it. */
export const createSession = async (
  host: SignedInAgent,
  hostUserId: string,
  projectId: string,
  options: { name?: string; maxParticipants?: number } = {},
): Promise<Session> =>
  expectStatus<Session>(await sessionsApi.create(host, { name: options.name ?? 'Test jam', projectId, hostUserId, maxParticipants: options.maxParticipants }), 201, 'POST /api/sessions');

/** Joins a session as the signed-in user (200) and answers the session and the participant record. */
export const joinSession = async (agent: SignedInAgent, userId: string, sessionId: string, role: 'collaborator' | 'viewer' = 'collaborator') =>
  expectStatus<{ session: Session; participant: Participant }>(await sessionsApi.join(agent, sessionId, { userId, role }), 200, `POST /api/sessions/${sessionId}/join`);

export const sessionParticipants = async (agent: SignedInAgent, sessionId: string): Promise<Participant[]> =>
  expectStatus<Participant[]>(await sessionsApi.participants(agent, sessionId), 200, `GET /api/sessions/${sessionId}/participants`);

export const sessionMessages = async (agent: SignedInAgent, sessionId: string): Promise<ChatMessage[]> =>
  expectStatus<ChatMessage[]>(await sessionsApi.messages(agent, sessionId), 200, `GET /api/sessions/${sessionId}/messages`);

export const sessionStems = async (agent: SignedInAgent, sessionId: string): Promise<Stem[]> =>
  expectStatus<Stem[]>(await sessionsApi.stems(agent, sessionId), 200, `GET /api/sessions/${sessionId}/stems`);

/**
 * The same signed-in browser talking to the second gateway replica (both share the session store, so the
 * cookie is good at either), as a participant whose page the load balancer sent there.
 */
export const onSecondReplica = (agent: SignedInAgent): SignedInAgent => ({
  cookie: agent.cookie,
  fetch: (path, init = {}) => {
    const headers: Record<string, string> = { ...(init.headers as Record<string, string>), cookie: agent.cookie };
    // A page served by the second replica writes with that replica's origin.
    if (headers.origin) headers.origin = BASE_URL_2;
    return fetch(`${BASE_URL_2}${path}`, { redirect: 'manual', ...init, headers });
  },
});

// ---- more people than the realm's demo and rival ----

/**
 * The test stack's Keycloak administrator: the one it was started with (KC_BOOTSTRAP_ADMIN_*), else one made
 * through Keycloak's own first-start page (it answers local requests only, while the server has no admin).
 */
const ADMIN = {
  username: process.env.KC_BOOTSTRAP_ADMIN_USERNAME ?? 'stemdeck-test-admin',
  password: process.env.KC_BOOTSTRAP_ADMIN_PASSWORD ?? 'stemdeck-test-admin-password',
};

/** Keycloak's first-start page makes the administrator while the server has none; afterwards it offers no form. */
async function bootstrapAdmin(): Promise<void> {
  const page = await fetch(`${KEYCLOAK_URL}/`, { redirect: 'manual' });
  const html = await page.text();
  const stateChecker = /name="stateChecker" type="hidden" value="([^"]+)"/.exec(html)?.[1];
  if (!stateChecker) return;
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .join('; ');
  const made = await fetch(`${KEYCLOAK_URL}/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ username: ADMIN.username, password: ADMIN.password, passwordConfirmation: ADMIN.password, stateChecker }).toString(),
  });
  if (made.status >= 400) throw new Error(`Keycloak's first-start page refused the administrator (${made.status})`);
}

async function adminToken(): Promise<string> {
  await bootstrapAdmin();
  return keycloakAdminToken(KEYCLOAK_URL, ADMIN.username, ADMIN.password);
}

/**
 * Signs in a further person of the test realm (made through the test stack's Keycloak admin API the first
 * time; the realm file has only demo and rival), e.g. the third person a two-seat session has no room for.
 */
export async function signInExtraUser(username: string, firstName: string, lastName: string): Promise<SignedInAgent> {
  const password = `${username}-password`;
  await ensureRealmUser(KEYCLOAK_URL, await adminToken(), { username, password, firstName, lastName });
  return signIn(username, password);
}
