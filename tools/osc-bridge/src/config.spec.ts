import { ConfigError, loadConfig } from './config';

function configError(argv: string[], env: NodeJS.ProcessEnv = {}): Error {
  try {
    loadConfig(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as Error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify({ argv, env })}`);
}

describe('loadConfig', () => {
  it('defaults to port 7400 and Resolume on 127.0.0.1:7000', () => {
    expect(loadConfig([], {})).toEqual({
      port: 7400,
      target: { host: '127.0.0.1', port: 7000 },
      resolumeTarget: { host: '127.0.0.1', port: 7000 },
      allowedOrigins: [],
    });
  });

  it('reads the environment', () => {
    const config = loadConfig([], {
      OSC_BRIDGE_PORT: '7500',
      OSC_BRIDGE_TARGET: 'touchdesigner.local:9000',
      OSC_BRIDGE_RESOLUME_TARGET: '192.168.1.30:7000',
      OSC_BRIDGE_ORIGINS: 'https://vj.example, http://studio.example:3000,',
    });
    expect(config).toEqual({
      port: 7500,
      target: { host: 'touchdesigner.local', port: 9000 },
      resolumeTarget: { host: '192.168.1.30', port: 7000 },
      allowedOrigins: ['https://vj.example', 'http://studio.example:3000'],
    });
  });

  it('lets flags, in either form, win over the environment', () => {
    const env = { OSC_BRIDGE_PORT: '7500', OSC_BRIDGE_TARGET: '10.0.0.2:9000', OSC_BRIDGE_RESOLUME_TARGET: '10.0.0.3:7000' };
    expect(loadConfig(['--port', '7600', '--target=192.168.1.20:7001', '--resolume-target', '192.168.1.21:7002'], env)).toMatchObject({
      port: 7600,
      target: { host: '192.168.1.20', port: 7001 },
      resolumeTarget: { host: '192.168.1.21', port: 7002 },
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig([], { OSC_BRIDGE_PORT: '', OSC_BRIDGE_TARGET: '' })).toMatchObject({
      port: 7400,
      target: { host: '127.0.0.1', port: 7000 },
    });
  });

  it.each([
    [['--port', 'abc'], {}, '--port must be an integer 1..65535 (got "abc")'],
    [['--port', '0'], {}, '--port must be an integer 1..65535 (got "0")'],
    [['--port=70000'], {}, '--port must be an integer 1..65535 (got "70000")'],
    [[], { OSC_BRIDGE_PORT: '74OO' }, 'OSC_BRIDGE_PORT must be an integer 1..65535 (got "74OO")'],
    [['--target', '127.0.0.1'], {}, '--target must be host:port, e.g. 127.0.0.1:7000 (got "127.0.0.1")'],
    [
      ['--target', '127.0.0.1:99999'],
      {},
      '--target "127.0.0.1:99999": port must be an integer 1..65535 (got 99999)',
    ],
    [['--target', 'localhost:osc'], {}, '--target "localhost:osc": port must be an integer 1..65535 (got "osc")'],
    [
      [],
      { OSC_BRIDGE_TARGET: '[::1]:7000' },
      'OSC_BRIDGE_TARGET "[::1]:7000": host must be an IPv4 address or a hostname (got "[::1]")',
    ],
    [[], { OSC_BRIDGE_TARGET: ':7000' }, 'OSC_BRIDGE_TARGET ":7000": host must be an IPv4 address or a hostname (got "")'],
    [['--resolume-target', '7000'], {}, '--resolume-target must be host:port, e.g. 127.0.0.1:7000 (got "7000")'],
    [
      [],
      { OSC_BRIDGE_RESOLUME_TARGET: '127.0.0.1:0' },
      'OSC_BRIDGE_RESOLUME_TARGET "127.0.0.1:0": port must be an integer 1..65535 (got 0)',
    ],
    [
      [],
      { OSC_BRIDGE_ORIGINS: 'https://vj.example/' },
      'OSC_BRIDGE_ORIGINS entry "https://vj.example/" is not an origin (scheme://host[:port], no path or trailing slash)',
    ],
  ])('refuses %j with %j: %s', (argv, env, message) => {
    expect(configError(argv, env).message).toBe(message);
  });

  it.each([
    [['--verbose'], /Unknown option '--verbose'/],
    [['--port'], /--port.*argument missing/],
    [['7400'], /Unexpected argument '7400'/],
  ])('refuses the arguments %j', (argv, message) => {
    expect(configError(argv).message).toMatch(message);
  });
});
