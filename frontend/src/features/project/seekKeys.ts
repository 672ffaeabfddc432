/** Arrow keys move the playhead this far; Page Up / Page Down a bigger step. */
export const SEEK_STEP_S = 5;
export const SEEK_PAGE_S = 30;

/** Where a key pressed on the seek slider moves the playhead (WAI-ARIA slider keys), or null when it does not. */
export function seekTargetForKey(key: string, position: number, duration: number): number | null {
  const clamp = (seconds: number) => Math.min(duration, Math.max(0, seconds));
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(position + SEEK_STEP_S);
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(position - SEEK_STEP_S);
    case 'PageUp':
      return clamp(position + SEEK_PAGE_S);
    case 'PageDown':
      return clamp(position - SEEK_PAGE_S);
    case 'Home':
      return 0;
    case 'End':
      return duration;
    default:
      return null;
  }
}
