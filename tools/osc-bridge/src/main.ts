import { BRIDGE_HOST, OscBridge, PROTOCOL_VERSION } from './bridge';
import { BridgeConfig, ConfigError, DEFAULT_RESOLUME_TARGET, loadConfig, USAGE } from './config';
import { formatTarget } from './target';

function configOrExit(): BridgeConfig {
  try {
    return loadConfig(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`osc-bridge: ${error.message}\n${USAGE}`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  const bridge = new OscBridge(config);
  const { port } = await bridge.start().catch((error: Error) => {
    throw new Error(`cannot listen on ${BRIDGE_HOST}:${config.port}: ${error.message}`);
  });
  console.log(
    `OSC bridge (protocol ${PROTOCOL_VERSION}) listening on ws://${BRIDGE_HOST}:${port}: ` +
      `/ sends UDP to ${formatTarget(config.target)}, /resolume to ${formatTarget(config.resolumeTarget ?? DEFAULT_RESOLUME_TARGET)}`,
  );
  // Closing every socket lets the process end by itself; a second signal meets Node's default handler,
  // which kills the process should closing hang.
  const stop = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    void bridge.close();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: Error) => {
  console.error(`osc-bridge: ${error.message}`);
  process.exit(1);
});
