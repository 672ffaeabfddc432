/** The parts of butterchurn (MIT, no types of its own) that the milkdrop mode uses. */
declare module 'butterchurn' {
  export interface ButterchurnVisualizer {
    loadPreset(preset: object, blendSeconds: number): void;
    setRendererSize(width: number, height: number): void;
    render(options?: { audioLevels?: { timeByteArray: Uint8Array; timeByteArrayL: Uint8Array; timeByteArrayR: Uint8Array }; elapsedTime?: number }): void;
  }
  interface Butterchurn {
    createVisualizer(
      audioContext: AudioContext | null,
      canvas: HTMLCanvasElement,
      options: { width: number; height: number; pixelRatio?: number; textureRatio?: number },
    ): ButterchurnVisualizer;
  }
  const butterchurn: Butterchurn | { default: Butterchurn };
  export default butterchurn;
}

declare module 'butterchurn-presets/lib/butterchurnPresetsMinimal.min.js' {
  const presets: { getPresets(): Record<string, object> } | { default: { getPresets(): Record<string, object> } };
  export default presets;
}
