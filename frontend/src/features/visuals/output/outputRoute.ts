/** The browser output window's route: the visualizer alone, full screen, for a projector or a screen capture. */
export const OUTPUT_ROUTE = '/output';

/** Opens (or brings back) the output window; a named window, so a second click does not open another. */
export function openOutputWindow(): void {
  window.open(OUTPUT_ROUTE, 'stemdeck-output', 'popup,width=1280,height=720');
}
