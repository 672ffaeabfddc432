import { VISUAL_MODES, type VisualFrame } from '../visualizer/visualFrame';
import { SENT_WAVEFORM_SAMPLES, decodeFrame, encodeFrame } from './frameCodec';

function frame(): VisualFrame {
  const waveform = Uint8Array.from({ length: 2048 }, (_, i) => Math.round(128 + 100 * Math.sin(i / 10)));
  const spectrum = Uint8Array.from({ length: 1024 }, (_, i) => (i * 7) % 256);
  return { waveform, spectrum, pulse: 0.5, beat: true, bpm: 127.9, timeMs: 1234 };
}

describe('the output windows’ frame codec', () => {
  it.each(VISUAL_MODES)('round-trips a %s frame in about 2 KB', (mode) => {
    const sent = frame();
    const buffer = encodeFrame(mode, sent, 4_000_000_123);
    expect(buffer.byteLength).toBe(16 + SENT_WAVEFORM_SAMPLES + 1024);
    const received = decodeFrame(buffer, 99)!;
    expect(received.mode).toBe(mode);
    expect(received.sequence).toBe(4_000_000_123);
    expect(received.frame.beat).toBe(true);
    expect(received.frame.bpm).toBe(127.9);
    expect(received.frame.pulse).toBeCloseTo(0.5, 2);
    expect(received.frame.timeMs).toBe(99);
    expect(Array.from(received.frame.spectrum)).toEqual(Array.from(sent.spectrum));
    // Every other waveform sample.
    expect(received.frame.waveform.length).toBe(1024);
    for (let i = 0; i < 1024; i++) expect(received.frame.waveform[i]).toBe(sent.waveform[i * 2]);
  });

  it('keeps a short waveform whole and reads silence as silence', () => {
    const silent: VisualFrame = { waveform: new Uint8Array(512).fill(128), spectrum: new Uint8Array(256), pulse: 0, beat: false, bpm: 120, timeMs: 0 };
    const received = decodeFrame(encodeFrame('spectrum', silent, 1))!;
    expect(received.frame.waveform.every((v) => v === 128)).toBe(true);
    expect(received.frame.waveform.length).toBe(512);
    expect(received.frame.spectrum.length).toBe(256);
    expect(received.frame.beat).toBe(false);
  });

  it('ignores anything that is not a frame of this version', () => {
    const buffer = encodeFrame('waveform', frame(), 1);
    expect(decodeFrame('hello')).toBeNull();
    expect(decodeFrame({ type: 'hello' })).toBeNull();
    expect(decodeFrame(new ArrayBuffer(8))).toBeNull();
    const otherVersion = buffer.slice(0);
    new DataView(otherVersion).setUint8(2, 9);
    expect(decodeFrame(otherVersion)).toBeNull();
    const truncated = buffer.slice(0, buffer.byteLength - 1);
    expect(decodeFrame(truncated)).toBeNull();
    const badMode = buffer.slice(0);
    new DataView(badMode).setUint8(3, 200);
    expect(decodeFrame(badMode)).toBeNull();
  });
});
