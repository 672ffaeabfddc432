import { CONTEXT_LOST_REASON, webglIsSoftware, webglUnavailableReason, type GLRenderer } from './renderers/glRenderer';
import { CircularRenderer, ParticlesRenderer, SpectrumRenderer, WaveformRenderer, type Renderer2D } from './renderers/renderers2d';
import { WEBGL_MODES, type Size, type VisualFrame, type VisualMode } from './visualFrame';

/** Drawing buffers at most this many device pixels per CSS pixel (a 4K projector needs no more). */
const MAX_PIXEL_RATIO = 2;
/** The WebGL modes' drawing-buffer scale when WebGL runs on the CPU (measured: full size takes 10–100× too long). */
export const SOFTWARE_GL_SCALE: Partial<Record<VisualMode, number>> = { bars3d: 0.5, milkdrop: 0.25 };

export function create2dRenderer(mode: VisualMode): Renderer2D | null {
  switch (mode) {
    case 'waveform':
      return new WaveformRenderer();
    case 'spectrum':
      return new SpectrumRenderer();
    case 'particles':
      return new ParticlesRenderer();
    case 'circular':
      return new CircularRenderer();
    default:
      return null;
  }
}

/** The WebGL modes, loaded when first chosen (three.js and butterchurn stay out of the studio's first load). */
export async function createGlRenderer(mode: VisualMode): Promise<GLRenderer> {
  if (mode === 'bars3d') return new (await import('./renderers/bars3dRenderer')).Bars3dRenderer();
  if (mode === 'milkdrop') return new (await import('./renderers/milkdropRenderer')).MilkdropRenderer();
  throw new Error(`${mode} is not a WebGL mode`);
}

export interface VisualizerViewOptions {
  /** A mode could not be drawn (no WebGL, context lost, failed to load): why, in plain words. Null when it draws. */
  onProblem?: (mode: VisualMode, reason: string | null) => void;
}

/**
 * Draws frames in a host element with the chosen mode's renderer, at the host's size: a 2D canvas for the 2D
 * modes, the WebGL mode's own canvas otherwise (only one WebGL context at a time: leaving a WebGL mode frees
 * it). Used by the studio's panel and by the output window. Plain DOM, no React.
 */
export class VisualizerView {
  private readonly canvas2d: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D | null;
  private readonly renderers2d = new Map<VisualMode, Renderer2D>();
  private gl: { mode: VisualMode; renderer: GLRenderer } | null = null;
  private currentMode: VisualMode | null = null;
  /** Bumped on every mode change: a WebGL renderer that finishes loading after another change is dropped. */
  private generation = 0;
  private readonly resizeObserver: ResizeObserver | null;
  private size: Size = { width: 0, height: 0 };
  private sizeDirty = true;
  private disposed = false;

  constructor(
    private readonly host: HTMLElement,
    private readonly options: VisualizerViewOptions = {},
  ) {
    this.canvas2d = this.makeCanvas(document.createElement('canvas'));
    this.ctx = this.canvas2d.getContext('2d', { alpha: false });
    host.appendChild(this.canvas2d);
    this.resizeObserver = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => (this.sizeDirty = true));
    this.resizeObserver?.observe(host);
  }

  get mode(): VisualMode | null {
    return this.currentMode;
  }

  /** Shows `mode`; a WebGL mode is created (and loaded) now, and drawn once it is ready. */
  setMode(mode: VisualMode): void {
    if (this.disposed || mode === this.currentMode) return;
    this.currentMode = mode;
    const generation = ++this.generation;
    this.host.dataset.mode = mode;
    this.releaseGl();
    if (!WEBGL_MODES.has(mode)) {
      this.canvas2d.style.display = 'block';
      if (!this.renderers2d.has(mode)) this.renderers2d.set(mode, create2dRenderer(mode)!);
      this.options.onProblem?.(mode, null);
      return;
    }
    this.canvas2d.style.display = 'none';
    const unavailable = webglUnavailableReason();
    if (unavailable) {
      this.options.onProblem?.(mode, unavailable);
      return;
    }
    createGlRenderer(mode).then(
      (renderer) => {
        if (this.disposed || generation !== this.generation) {
          renderer.dispose();
          return;
        }
        this.makeCanvas(renderer.canvas);
        renderer.canvas.addEventListener('webglcontextlost', (event) => {
          event.preventDefault();
          if (this.gl?.renderer !== renderer) return;
          this.releaseGl();
          this.currentMode = null;
          this.options.onProblem?.(mode, CONTEXT_LOST_REASON);
        });
        this.host.appendChild(renderer.canvas);
        this.gl = { mode, renderer };
        this.sizeDirty = true;
        this.options.onProblem?.(mode, null);
      },
      () => {
        if (generation === this.generation) this.options.onProblem?.(mode, 'This mode could not be loaded. Reload the page to try again.');
      },
    );
  }

  /** The drawing buffer's size now (device pixels; a WebGL mode on the CPU draws smaller). */
  get drawingSize(): Size {
    const canvas = this.gl?.renderer.canvas ?? this.canvas2d;
    return { width: canvas.width, height: canvas.height };
  }

  /** Draws one frame with the current mode (nothing while a WebGL mode is still loading). */
  draw(frame: VisualFrame): void {
    if (this.disposed || !this.currentMode) return;
    if (this.sizeDirty) this.applySize();
    if (this.size.width === 0 || this.size.height === 0) return;
    if (this.gl) {
      this.gl.renderer.draw(frame);
      return;
    }
    const renderer = this.renderers2d.get(this.currentMode);
    if (renderer && this.ctx) renderer.draw(frame, this.ctx, this.size);
  }

  /** Frees the WebGL context and stops observing the host; the canvases are removed. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.generation++;
    this.releaseGl();
    this.resizeObserver?.disconnect();
    this.canvas2d.width = 1;
    this.canvas2d.height = 1;
    this.canvas2d.remove();
  }

  private releaseGl(): void {
    if (!this.gl) return;
    this.gl.renderer.dispose();
    this.gl.renderer.canvas.remove();
    this.gl = null;
  }

  private applySize(): void {
    this.sizeDirty = false;
    const ratio = Math.min(MAX_PIXEL_RATIO, window.devicePixelRatio || 1);
    const width = Math.round(this.host.clientWidth * ratio);
    const height = Math.round(this.host.clientHeight * ratio);
    this.size = { width, height };
    if (this.canvas2d.width !== width || this.canvas2d.height !== height) {
      this.canvas2d.width = width;
      this.canvas2d.height = height;
    }
    if (this.gl && width > 0 && height > 0) {
      const scale = webglIsSoftware() ? (SOFTWARE_GL_SCALE[this.gl.mode] ?? 1) : 1;
      this.gl.renderer.resize({ width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) });
    }
  }

  private makeCanvas(canvas: HTMLCanvasElement): HTMLCanvasElement {
    canvas.dataset.testid = 'visualizer-canvas';
    Object.assign(canvas.style, { position: 'absolute', inset: '0', width: '100%', height: '100%', display: 'block' });
    return canvas;
  }
}
