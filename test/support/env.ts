/** Where the stack started by `npm test` lives (set by scripts/test.mjs). */
export const BASE_URL = process.env.STEMDECK_URL ?? 'http://localhost:18080';
/** The second gateway replica of that stack: same database, session store and NATS, its own port. */
export const BASE_URL_2 = process.env.STEMDECK_URL_2 ?? 'http://localhost:18081';
export const KEYCLOAK_URL = process.env.STEMDECK_KEYCLOAK_URL ?? 'http://localhost:18180';
export const CSRF = { 'x-stemdeck-csrf': '1', origin: BASE_URL };
