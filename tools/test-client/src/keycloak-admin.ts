/**
 * A test or load run's Keycloak administration over its admin REST API: an admin token, and people of the
 * stemdeck realm made with a known password (the realm file has only demo and rival). Only for stacks the run
 * started itself (loopback).
 */

/** An access token of the master realm's administrator (admin-cli, password grant). */
export async function keycloakAdminToken(keycloakUrl: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${keycloakUrl}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username, password }).toString(),
  });
  if (response.status !== 200) throw new KeycloakAdminRefused(response.status, await response.text());
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Keycloak would not sign its administrator in (the caller knows what to tell its reader). */
export class KeycloakAdminRefused extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`no Keycloak admin token (${status}): ${body}`);
  }
}

export interface RealmPerson {
  username: string;
  password: string;
  firstName: string;
  lastName: string;
}

/** Makes `person` in the stemdeck realm; one who is there already is left as they are. */
export async function ensureRealmUser(keycloakUrl: string, token: string, person: RealmPerson): Promise<void> {
  const response = await fetch(`${keycloakUrl}/admin/realms/stemdeck/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      username: person.username,
      enabled: true,
      emailVerified: true,
      // Keycloak's user profile asks a user without these to complete it at sign-in.
      firstName: person.firstName,
      lastName: person.lastName,
      email: `${person.username}@example.com`,
      credentials: [{ type: 'password', value: person.password, temporary: false }],
    }),
  });
  if (response.status !== 201 && response.status !== 409) throw new Error(`Keycloak did not make ${person.username} (${response.status}): ${await response.text()}`);
}
