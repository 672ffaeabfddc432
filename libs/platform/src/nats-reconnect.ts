/**
 * Every NATS connection in the project reconnects for as long as it takes. The client's default gives up
 * after 10 attempts (about 20 s); a connection that has given up stays closed, so a NATS restart longer
 * than that would leave the process running but deaf (no RPC, no events, no jobs) until it is restarted.
 */
export const NATS_RECONNECT_FOREVER = { maxReconnectAttempts: -1 } as const;
