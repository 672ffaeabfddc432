import { silentFrame, type VisualFrame, type VisualMode } from '../visualFrame';
import { create2dRenderer } from '../visualizerView';
import { PARTICLE_LIMIT, ParticlesRenderer, type Canvas2D } from './renderers2d';

/** A 2D context that records every call and property set, in order, numbers rounded to 0.1 px. */
function recordingContext(): Canvas2D & { calls: string[] } {
  const calls: string[] = [];
  const record = (name: string) => (...args: unknown[]) => {
    calls.push(`${name}(${args.map((a) => (typeof a === 'number' ? a.toFixed(1) : String(a))).join(',')})`);
  };
  const ctx = { calls } as unknown as Canvas2D & { calls: string[] };
  for (const method of ['fillRect', 'beginPath', 'moveTo', 'lineTo', 'closePath', 'arc', 'stroke', 'fill'] as const) ctx[method] = record(method);
  for (const property of ['fillStyle', 'strokeStyle', 'lineWidth', 'globalAlpha'] as const) {
    Object.defineProperty(ctx, property, { set: (value) => calls.push(`${property}=${value}`), get: () => undefined });
  }
  return ctx;
}

/** A 440 Hz sine at half scale as the analyser shows it: the waveform, and the spectrum's peak around its bin. */
function sineFrame(): VisualFrame {
  const frame = silentFrame();
  for (let i = 0; i < frame.waveform.length; i++) frame.waveform[i] = Math.round(128 + 64 * Math.sin((2 * Math.PI * 440 * i) / 48_000));
  const bin = Math.round(440 / (48_000 / 2048));
  for (let offset = -3; offset <= 3; offset++) frame.spectrum[bin + offset] = 220 - Math.abs(offset) * 30;
  return frame;
}

const SIZE = { width: 640, height: 360 };
const MODES_2D: VisualMode[] = ['waveform', 'spectrum', 'particles', 'circular'];

function drawn(mode: VisualMode, frame: VisualFrame): string[] {
  const ctx = recordingContext();
  create2dRenderer(mode)!.draw(frame, ctx, SIZE);
  return ctx.calls;
}

describe('the 2D visualizer modes', () => {
  it.each(MODES_2D)('%s draws a sine differently from silence, and silence the same way every time', (mode) => {
    const silence = drawn(mode, silentFrame());
    const sine = drawn(mode, sineFrame());
    expect(silence[0]).toBe('globalAlpha=1');
    expect(silence).toContain(`fillRect(0.0,0.0,${SIZE.width.toFixed(1)},${SIZE.height.toFixed(1)})`);
    expect(sine).not.toEqual(silence);
    // More is drawn for the sine (bars, particles, a bent line) than for silence.
    const marks = (calls: string[]) => calls.filter((call) => /^(fillRect|lineTo|arc)\(/.test(call)).length;
    expect(marks(sine)).toBeGreaterThanOrEqual(marks(silence));
    expect(drawn(mode, silentFrame())).toEqual(silence);
  });

  it.each(MODES_2D)('%s stands still while silence lasts and moves while the sine plays', (mode) => {
    const renderer = create2dRenderer(mode)!;
    const frames = (frame: () => VisualFrame) =>
      [0, 1].map(() => {
        const ctx = recordingContext();
        renderer.draw(frame(), ctx, SIZE);
        return ctx.calls.join(';');
      });
    const [silentA, silentB] = frames(silentFrame);
    expect(silentB).toBe(silentA);
    if (mode === 'particles' || mode === 'circular') {
      // These travel with the sound: two frames of the same sine differ.
      const [sineA, sineB] = frames(sineFrame);
      expect(sineB).not.toBe(sineA);
    }
  });

  it('a beat flashes the background', () => {
    const calm = drawn('spectrum', sineFrame());
    const onBeat = drawn('spectrum', { ...sineFrame(), beat: true, pulse: 1 });
    expect(calm[1]).toBe('fillStyle=rgb(0,0,0)');
    expect(onBeat[1]).not.toBe(calm[1]);
  });

  it('never has more than 100 particles, and shows them as the sound gets louder', () => {
    expect(new ParticlesRenderer(500).particles).toHaveLength(PARTICLE_LIMIT);
    const arcs = (frame: VisualFrame) => drawn('particles', frame).filter((call) => call.startsWith('arc(')).length;
    expect(arcs(silentFrame())).toBe(0);
    const loud = silentFrame();
    loud.spectrum.fill(200, 0, 400);
    expect(arcs(loud)).toBe(PARTICLE_LIMIT);
  });
});
