import OSC from 'osc-js';

type Decoded = InstanceType<typeof OSC.Message> | InstanceType<typeof OSC.Bundle>;

/** osc-js does not insist on the leading ',' of a type tag string, so it is checked here, bundles included. */
function hasTypeTags(item: Decoded): boolean {
  return item instanceof OSC.Bundle ? item.bundleElements.every(hasTypeTags) : item.types.startsWith(',');
}

/**
 * True when `bytes` are exactly one OSC message or bundle. osc-js decodes leniently (an unterminated
 * string or trailing bytes pass), so the packet must also decode up to its last byte.
 */
export function isOscPacket(bytes: Uint8Array): boolean {
  try {
    const packet = new OSC.Packet();
    const end = packet.unpack(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return end === bytes.byteLength && hasTypeTags(packet.value);
  } catch {
    return false;
  }
}
