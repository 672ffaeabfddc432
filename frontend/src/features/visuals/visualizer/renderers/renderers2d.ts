import { bandEnergy, logBands, type Size, type VisualFrame } from '../visualFrame';

/**
 * The 2D modes (waveform, spectrum, particles, circular): plain classes that draw one frame on a 2D context
 * of the given size. Every motion is driven by the sound (levels, beat pulses), none by the clock, so the
 * picture stands still when nothing plays. No per-frame allocation beyond the path itself: colours are
 * computed once.
 */

/** The part of CanvasRenderingContext2D the modes use (a recording fake in the unit tests). */
export interface Canvas2D {
  fillStyle: string | CanvasGradient | CanvasPattern;
  strokeStyle: string | CanvasGradient | CanvasPattern;
  lineWidth: number;
  globalAlpha: number;
  fillRect(x: number, y: number, width: number, height: number): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
  arc(x: number, y: number, radius: number, startAngle: number, endAngle: number): void;
  stroke(): void;
  fill(): void;
}

export interface Renderer2D {
  draw(frame: VisualFrame, ctx: Canvas2D, size: Size): void;
}

/** At most this many particles (the seed's cap). */
export const PARTICLE_LIMIT = 100;

const PULSE_STEPS = 16;
/** Black, flashing towards deep purple on a beat: PULSE_STEPS shades, so no colour string is built per frame. */
const BACKGROUNDS = Array.from({ length: PULSE_STEPS + 1 }, (_, step) => {
  const amount = step / PULSE_STEPS;
  return `rgb(${Math.round(40 * amount)},${Math.round(8 * amount)},${Math.round(64 * amount)})`;
});

const background = (pulse: number) => BACKGROUNDS[Math.round(Math.min(1, Math.max(0, pulse)) * PULSE_STEPS)]!;

/** `count` hues from purple through pink to cyan, each at PULSE_STEPS+1 lightnesses (brighter on a beat). */
function palette(count: number): string[][] {
  return Array.from({ length: count }, (_, i) => {
    const hue = Math.round(270 + (i / Math.max(1, count - 1)) * 150) % 360;
    return Array.from({ length: PULSE_STEPS + 1 }, (_, step) => `hsl(${hue},90%,${Math.round(55 + (step / PULSE_STEPS) * 25)}%)`);
  });
}

const shade = (colours: string[], pulse: number) => colours[Math.round(Math.min(1, Math.max(0, pulse)) * PULSE_STEPS)]!;

export class WaveformRenderer implements Renderer2D {
  private readonly colours = palette(1)[0]!;

  draw(frame: VisualFrame, ctx: Canvas2D, { width, height }: Size): void {
    ctx.globalAlpha = 1;
    ctx.fillStyle = background(frame.pulse);
    ctx.fillRect(0, 0, width, height);
    const samples = frame.waveform;
    // One point per three pixels is as smooth as the eye sees; a thin line (thick strokes cost the most to fill).
    const points = Math.max(2, Math.min(samples.length, Math.ceil(width / 3)));
    const stride = samples.length / points;
    ctx.strokeStyle = shade(this.colours, frame.pulse);
    ctx.lineWidth = Math.max(1, height / 360) * (1 + frame.pulse);
    ctx.beginPath();
    for (let point = 0; point < points; point++) {
      const value = (samples[Math.floor(point * stride)]! - 128) / 128;
      const x = (point / (points - 1)) * width;
      const y = height / 2 - value * (height / 2) * 0.9;
      if (point === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.stroke();
  }
}

const SPECTRUM_BARS = 64;

export class SpectrumRenderer implements Renderer2D {
  private readonly bands = new Float32Array(SPECTRUM_BARS);
  private readonly colours = palette(SPECTRUM_BARS);

  draw(frame: VisualFrame, ctx: Canvas2D, { width, height }: Size): void {
    ctx.globalAlpha = 1;
    ctx.fillStyle = background(frame.pulse);
    ctx.fillRect(0, 0, width, height);
    logBands(frame.spectrum, SPECTRUM_BARS, this.bands);
    const slot = width / SPECTRUM_BARS;
    const gap = Math.max(1, slot * 0.15);
    for (let bar = 0; bar < SPECTRUM_BARS; bar++) {
      const level = this.bands[bar]!;
      if (level <= 0) continue;
      const barHeight = level * height * 0.95;
      ctx.fillStyle = shade(this.colours[bar]!, frame.pulse);
      ctx.fillRect(bar * slot + gap / 2, height - barHeight, slot - gap, barHeight);
    }
  }
}

interface Particle {
  x: number;
  y: number;
  /** Direction of travel (unit vector). */
  dx: number;
  dy: number;
  size: number;
  colour: string[];
}

/**
 * Up to PARTICLE_LIMIT particles drifting with the music: they travel as fast as the sound is loud and are
 * thrown outwards on every beat; more of them show as the sound gets louder. Positions are fractions of the
 * canvas, so an output window of another size shows the same picture.
 */
export class ParticlesRenderer implements Renderer2D {
  readonly particles: Particle[];

  constructor(count = PARTICLE_LIMIT) {
    let seed = 0x5eed;
    const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 0xffffffff;
    const colours = palette(8);
    this.particles = Array.from({ length: Math.min(count, PARTICLE_LIMIT) }, (_, i) => {
      const angle = random() * Math.PI * 2;
      return { x: random(), y: random(), dx: Math.cos(angle), dy: Math.sin(angle), size: 0.004 + random() * 0.008, colour: colours[i % colours.length]! };
    });
  }

  draw(frame: VisualFrame, ctx: Canvas2D, { width, height }: Size): void {
    ctx.globalAlpha = 1;
    ctx.fillStyle = background(frame.pulse);
    ctx.fillRect(0, 0, width, height);
    const bass = bandEnergy(frame.spectrum, 0, 0.02);
    // The loudest bin counts most (a single tone moves them too), the spread of the sound a little.
    const loudness = 0.7 * peakLevel(frame.spectrum, 0.4) + 0.3 * bandEnergy(frame.spectrum, 0, 0.4);
    const speed = loudness * 0.004 + frame.pulse * bass * 0.02;
    const shown = Math.round(this.particles.length * Math.min(1, loudness * 1.5));
    const scale = Math.min(width, height);
    for (let i = 0; i < this.particles.length; i++) {
      const particle = this.particles[i]!;
      if (speed > 0) {
        // Away from the centre on a beat, along its own direction otherwise; wrapping at the edges.
        const fromCentreX = particle.x - 0.5;
        const fromCentreY = particle.y - 0.5;
        const distance = Math.hypot(fromCentreX, fromCentreY) || 1;
        particle.x = wrap(particle.x + particle.dx * speed + (fromCentreX / distance) * frame.pulse * bass * 0.01);
        particle.y = wrap(particle.y + particle.dy * speed + (fromCentreY / distance) * frame.pulse * bass * 0.01);
      }
      if (i >= shown) continue;
      ctx.fillStyle = shade(particle.colour, frame.pulse);
      ctx.beginPath();
      ctx.arc(particle.x * width, particle.y * height, particle.size * scale * (1 + bass * 1.5 + frame.pulse), 0, Math.PI * 2);
      ctx.fill();
    }
  }
}

const wrap = (value: number) => value - Math.floor(value);

/** The loudest bin below `toFraction` of the spectrum, 0–1. */
function peakLevel(spectrum: Uint8Array, toFraction: number): number {
  let peak = 0;
  const end = Math.floor(spectrum.length * toFraction);
  for (let bin = 1; bin < end; bin++) if (spectrum[bin]! > peak) peak = spectrum[bin]!;
  return peak / 255;
}

const CIRCLE_BARS = 96;
const CIRCLE_COLOURS = 16;
const RING_POINTS = 180;

/** Spectrum bars standing round a ring that swells on the beat, turning as fast as the sound is loud, with the waveform as the ring. */
export class CircularRenderer implements Renderer2D {
  private readonly bands = new Float32Array(CIRCLE_BARS);
  private readonly colours = palette(CIRCLE_COLOURS);
  private readonly ringColours = palette(1)[0]!;
  private rotation = 0;

  draw(frame: VisualFrame, ctx: Canvas2D, { width, height }: Size): void {
    ctx.globalAlpha = 1;
    ctx.fillStyle = background(frame.pulse);
    ctx.fillRect(0, 0, width, height);
    logBands(frame.spectrum, CIRCLE_BARS, this.bands);
    const cx = width / 2;
    const cy = height / 2;
    const size = Math.min(width, height);
    const radius = size * 0.22 * (1 + frame.pulse * 0.12);
    this.rotation += bandEnergy(frame.spectrum, 0, 0.3) * 0.03;
    ctx.lineWidth = Math.max(1, (Math.PI * 2 * radius) / CIRCLE_BARS) * 0.6;
    // Neighbouring bars share a colour and one path: CIRCLE_COLOURS strokes a frame, not one per bar.
    const perColour = CIRCLE_BARS / CIRCLE_COLOURS;
    for (let group = 0; group < CIRCLE_COLOURS; group++) {
      ctx.strokeStyle = shade(this.colours[group]!, frame.pulse);
      ctx.beginPath();
      let any = false;
      for (let bar = group * perColour; bar < (group + 1) * perColour; bar++) {
        const level = this.bands[bar]!;
        if (level <= 0) continue;
        any = true;
        const angle = this.rotation + (bar / CIRCLE_BARS) * Math.PI * 2;
        const length = level * size * 0.25;
        const cos = Math.cos(angle);
        const sin = Math.sin(angle);
        ctx.moveTo(cx + cos * radius, cy + sin * radius);
        ctx.lineTo(cx + cos * (radius + length), cy + sin * (radius + length));
      }
      if (any) ctx.stroke();
    }
    // The ring: the waveform bent round the circle.
    const samples = frame.waveform;
    ctx.strokeStyle = shade(this.ringColours, frame.pulse);
    ctx.lineWidth = Math.max(1, size / 300);
    ctx.beginPath();
    for (let point = 0; point <= RING_POINTS; point++) {
      const sample = samples[Math.floor(((point % RING_POINTS) / RING_POINTS) * samples.length)]!;
      const r = radius * (1 + ((sample - 128) / 128) * 0.25);
      const angle = this.rotation + (point / RING_POINTS) * Math.PI * 2;
      const x = cx + Math.cos(angle) * r;
      const y = cy + Math.sin(angle) * r;
      if (point === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.closePath();
    ctx.stroke();
  }
}
