import { RESOLUME_TEMPO_ADDRESS, RESOLUME_TEMPO_RANGE, type SentOscMessage } from '../../../instruments/controlOutputs';
import type { BridgeRoute, OscArgument } from '../../../instruments/oscBridgeClient';

/** Where each route's messages go, in the list's words. */
export const ROUTE_NAMES: Record<BridgeRoute, string> = { default: 'TouchDesigner', resolume: 'Resolume' };

/** 21:04:05.123, in this computer's time. */
export function clockTime(at: number): string {
  const date = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

function argumentText(arg: OscArgument): string {
  if (typeof arg === 'string') return arg;
  const value = typeof arg === 'number' ? arg : arg.value;
  // Floats as sent to at most 4 decimals (a level, a position, Resolume's 0..1 tempo); ints as they are.
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(4)));
}

/** The arguments as a person reads them; Resolume's 0..1 tempo also says its BPM. */
export function argumentsText(message: Pick<SentOscMessage, 'address' | 'args'>): string {
  const text = message.args.map(argumentText).join(' ');
  const [first] = message.args;
  if (message.address !== RESOLUME_TEMPO_ADDRESS || first === undefined || typeof first === 'string') return text;
  const value = typeof first === 'number' ? first : first.value;
  const bpm = RESOLUME_TEMPO_RANGE.min + value * (RESOLUME_TEMPO_RANGE.max - RESOLUME_TEMPO_RANGE.min);
  return `${text} (${Number(bpm.toFixed(2))} BPM)`;
}
