import { VISUAL_MODES, type VisualFrame, type VisualMode } from '../visualizer/visualFrame';

/**
 * The studio streams the visualizer to output windows (the /output route) on this BroadcastChannel: one
 * compact binary message per frame, about 2 KB (the waveform halved to 1024 samples, the 1024 frequency
 * bins, a 16-byte header), at the studio's frame rate (at most 60 per second).
 *
 * Header (little-endian): 'S' 'V', version, mode index, flags (bit 0: a beat in this frame), pulse 0–255,
 * tempo × 10 (uint16), sequence (uint32), waveform length (uint16), spectrum length (uint16); then the bytes.
 */
export const VISUALS_CHANNEL = 'stemdeck-visuals';
export const FRAME_CODEC_VERSION = 1;
const HEADER_BYTES = 16;
/** Waveform samples sent: half the analyser's 2048, as fine as any screen shows. */
export const SENT_WAVEFORM_SAMPLES = 1024;

export interface StreamedFrame {
  mode: VisualMode;
  sequence: number;
  frame: VisualFrame;
}

export function encodeFrame(mode: VisualMode, frame: VisualFrame, sequence: number): ArrayBuffer {
  const waveformLength = Math.min(SENT_WAVEFORM_SAMPLES, frame.waveform.length);
  const spectrumLength = Math.min(0xffff, frame.spectrum.length);
  const buffer = new ArrayBuffer(HEADER_BYTES + waveformLength + spectrumLength);
  const view = new DataView(buffer);
  view.setUint8(0, 0x53);
  view.setUint8(1, 0x56);
  view.setUint8(2, FRAME_CODEC_VERSION);
  view.setUint8(3, VISUAL_MODES.indexOf(mode));
  view.setUint8(4, frame.beat ? 1 : 0);
  view.setUint8(5, Math.round(Math.min(1, Math.max(0, frame.pulse)) * 255));
  view.setUint16(6, Math.round(Math.min(6553.5, Math.max(0, frame.bpm)) * 10), true);
  view.setUint32(8, sequence >>> 0, true);
  view.setUint16(12, waveformLength, true);
  view.setUint16(14, spectrumLength, true);
  const bytes = new Uint8Array(buffer);
  const stride = frame.waveform.length / waveformLength;
  for (let i = 0; i < waveformLength; i++) bytes[HEADER_BYTES + i] = frame.waveform[Math.floor(i * stride)]!;
  bytes.set(frame.spectrum.subarray(0, spectrumLength), HEADER_BYTES + waveformLength);
  return buffer;
}

/** The frame in a message, or null for anything that is not one (another version, a stray message). */
export function decodeFrame(data: unknown, timeMs = 0): StreamedFrame | null {
  if (!(data instanceof ArrayBuffer) || data.byteLength < HEADER_BYTES) return null;
  const view = new DataView(data);
  if (view.getUint8(0) !== 0x53 || view.getUint8(1) !== 0x56 || view.getUint8(2) !== FRAME_CODEC_VERSION) return null;
  const mode = VISUAL_MODES[view.getUint8(3)];
  const waveformLength = view.getUint16(12, true);
  const spectrumLength = view.getUint16(14, true);
  if (!mode || data.byteLength !== HEADER_BYTES + waveformLength + spectrumLength) return null;
  return {
    mode,
    sequence: view.getUint32(8, true),
    frame: {
      beat: (view.getUint8(4) & 1) === 1,
      pulse: view.getUint8(5) / 255,
      bpm: view.getUint16(6, true) / 10,
      waveform: new Uint8Array(data, HEADER_BYTES, waveformLength),
      spectrum: new Uint8Array(data, HEADER_BYTES + waveformLength, spectrumLength),
      timeMs,
    },
  };
}
