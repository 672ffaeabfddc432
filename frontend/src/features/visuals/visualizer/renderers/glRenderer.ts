import type { Size, VisualFrame } from '../visualFrame';

/** A WebGL mode: it owns its canvas (a canvas holds one kind of context) and frees its GPU resources on dispose. */
export interface GLRenderer {
  readonly canvas: HTMLCanvasElement;
  /** Drawing-buffer size in device pixels. */
  resize(size: Size): void;
  draw(frame: VisualFrame): void;
  dispose(): void;
}

const NO_WEBGL = 'This mode needs 3D graphics (WebGL 2), which this browser has turned off or does not offer.';
let checked: string | null | undefined;
let software = false;

/** Null when WebGL 2 is available here; otherwise why not, in plain words. Checked once per page. */
export function webglUnavailableReason(): string | null {
  if (checked !== undefined) return checked;
  try {
    const probe = document.createElement('canvas');
    const gl = probe.getContext('webgl2');
    checked = gl ? null : NO_WEBGL;
    const info = gl?.getExtension('WEBGL_debug_renderer_info');
    const renderer = info && gl ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
    software = /swiftshader|llvmpipe|software/i.test(renderer);
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
  } catch {
    checked = NO_WEBGL;
  }
  return checked;
}

/**
 * Whether WebGL runs on the CPU here (SwiftShader, llvmpipe: a browser without graphics acceleration). The
 * WebGL modes then draw a smaller picture, scaled up to fill the screen, to keep the frame rate.
 */
export function webglIsSoftware(): boolean {
  webglUnavailableReason();
  return software;
}

export const CONTEXT_LOST_REASON = 'The graphics driver stopped drawing this mode. Choose it again to restart it.';
