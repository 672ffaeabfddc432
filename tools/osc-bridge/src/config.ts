import { parseArgs } from 'node:util';
import { checkTarget, isPort, UdpTarget } from './target';

export interface BridgeConfig {
  /** WebSocket port on 127.0.0.1. */
  port: number;
  /** Where the default route's OSC packets go (any OSC receiver: TouchDesigner, Resolume, …); 127.0.0.1:7000 by default. */
  target: UdpTarget;
  /** Where the /resolume route's packets go until a client moves it; Resolume's own OSC input, 127.0.0.1:7000, when absent. */
  resolumeTarget?: UdpTarget;
  /** Origins accepted besides http(s)://localhost and http(s)://127.0.0.1 on any port. */
  allowedOrigins: string[];
}

/** A bad flag or variable; the message names it, so the CLI prints it with the usage and stops. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const USAGE =
  'Usage: npm run osc-bridge -- [--port N] [--target host:port] [--resolume-target host:port]\n' +
  '  env: OSC_BRIDGE_PORT, OSC_BRIDGE_TARGET, OSC_BRIDGE_RESOLUME_TARGET, OSC_BRIDGE_ORIGINS (comma-separated exact origins)';

const DEFAULT_PORT = 7400;
const DEFAULT_TARGET: UdpTarget = { host: '127.0.0.1', port: 7000 };
/** Resolume's OSC input listens on 7000 unless changed in its preferences. */
export const DEFAULT_RESOLUME_TARGET: UdpTarget = { host: '127.0.0.1', port: 7000 };

/** A flag wins over its variable; an empty variable counts as unset. */
function pick(flag: string, flagValue: string | undefined, name: string, env: NodeJS.ProcessEnv) {
  if (flagValue !== undefined) return { source: flag, text: flagValue };
  const text = env[name];
  return text ? { source: name, text } : undefined;
}

function parsePort(source: string, text: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!isPort(port)) throw new ConfigError(`${source} must be an integer 1..65535 (got ${JSON.stringify(text)})`);
  return port;
}

function parseTarget(source: string, text: string): UdpTarget {
  const colon = text.lastIndexOf(':');
  if (colon < 0) throw new ConfigError(`${source} must be host:port, e.g. 127.0.0.1:7000 (got ${JSON.stringify(text)})`);
  const portText = text.slice(colon + 1);
  try {
    return checkTarget(text.slice(0, colon), /^\d+$/.test(portText) ? Number(portText) : portText);
  } catch (error) {
    throw new ConfigError(`${source} ${JSON.stringify(text)}: ${(error as Error).message}`);
  }
}

/** Exact matching is easy to get wrong with a trailing slash or a path, so each entry must be a bare origin. */
function parseOrigins(text: string): string[] {
  const origins = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const origin of origins) {
    if (URL.canParse(origin) && new URL(origin).origin === origin) continue;
    throw new ConfigError(
      `OSC_BRIDGE_ORIGINS entry ${JSON.stringify(origin)} is not an origin (scheme://host[:port], no path or trailing slash)`,
    );
  }
  return origins;
}

export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv): BridgeConfig {
  let flags: { port?: string; target?: string; 'resolume-target'?: string };
  try {
    flags = parseArgs({
      args: [...argv],
      options: { port: { type: 'string' }, target: { type: 'string' }, 'resolume-target': { type: 'string' } },
      strict: true,
    }).values;
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const port = pick('--port', flags.port, 'OSC_BRIDGE_PORT', env);
  const target = pick('--target', flags.target, 'OSC_BRIDGE_TARGET', env);
  const resolumeTarget = pick('--resolume-target', flags['resolume-target'], 'OSC_BRIDGE_RESOLUME_TARGET', env);
  return {
    port: port ? parsePort(port.source, port.text) : DEFAULT_PORT,
    target: target ? parseTarget(target.source, target.text) : DEFAULT_TARGET,
    resolumeTarget: resolumeTarget ? parseTarget(resolumeTarget.source, resolumeTarget.text) : DEFAULT_RESOLUME_TARGET,
    allowedOrigins: parseOrigins(env.OSC_BRIDGE_ORIGINS ?? ''),
  };
}
