import { useEffect, useRef } from 'react';

/** Typing in a text field never plays notes; sliders, buttons and the page do. */
function isTextEntry(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (!element) return false;
  if (element.isContentEditable || element.tagName === 'TEXTAREA' || element.tagName === 'SELECT') return true;
  return element.tagName === 'INPUT' && !['range', 'checkbox', 'radio', 'button'].includes((element as HTMLInputElement).type);
}

/**
 * Computer-keyboard play while the calling panel is mounted: `onDown`/`onUp` get the lower-cased key,
 * once per press (auto-repeat ignored). Return true from onDown to claim the key (default prevented).
 */
export function useKeys(onDown: (key: string) => boolean, onUp?: (key: string) => void): void {
  const handlers = useRef({ onDown, onUp });
  handlers.current = { onDown, onUp };
  useEffect(() => {
    const down = (event: KeyboardEvent) => {
      if (event.repeat || event.metaKey || event.ctrlKey || event.altKey || isTextEntry(event.target)) return;
      if (handlers.current.onDown(event.key.toLowerCase())) event.preventDefault();
    };
    const up = (event: KeyboardEvent) => handlers.current.onUp?.(event.key.toLowerCase());
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
    };
  }, []);
}
