/** Where the bridge sends its UDP datagrams. */
export interface UdpTarget {
  host: string;
  port: number;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HOSTNAME_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

export function isPort(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 65535;
}

/**
 * IPv4 literals and hostnames only: the bridge sends through one udp4 socket, so an IPv6 literal is
 * refused here with a clear message instead of failing later at send time.
 */
function isIpv4OrHostname(host: string): boolean {
  const quad = IPV4.exec(host);
  if (quad) return quad.slice(1).every((octet) => Number(octet) <= 255);
  return host.length <= 253 && host.split('.').every((label) => HOSTNAME_LABEL.test(label));
}

function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** Validates a target from any source (CLI, env, a browser's text frame); the error names the bad field. */
export function checkTarget(host: unknown, port: unknown): UdpTarget {
  if (typeof host !== 'string' || !isIpv4OrHostname(host)) {
    throw new Error(`host must be an IPv4 address or a hostname (got ${shown(host)})`);
  }
  if (!isPort(port)) throw new Error(`port must be an integer 1..65535 (got ${shown(port)})`);
  return { host, port };
}

export function formatTarget({ host, port }: UdpTarget): string {
  return `${host}:${port}`;
}
