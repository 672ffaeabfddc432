import { createToaster, Portal, Stack, Toast, Toaster as ChakraToaster } from '@chakra-ui/react';
import { useRef, type PointerEvent, type ReactNode } from 'react';

const TOAST_MS = 5000;
/** A toast's time on screen while other news waits behind it: long enough to read a title and a line. */
const BUSY_MS = 2500;
/** A toast already on screen that other news cuts short still stays at least this much longer. */
const LAST_LOOK_MS = 1000;
/** At most this many different pieces of news wait; beyond it the oldest that is not an error gives way. */
const MAX_WAITING = 3;

/** One toast visible at a time, 5000 ms by default, F8 focuses the region. */
const store = createToaster({
  placement: 'bottom-end',
  max: 1,
  duration: TOAST_MS,
  hotkey: ['F8'],
  pauseOnPageIdle: true,
});

type ToastStore = typeof store;
export type ToastOptions = Parameters<ToastStore['create']>[0];
type Waiting = ToastOptions & { id: string };

/**
 * The same news again: the same title (and type); for an error also the same words, so that no different
 * error is lost while the same one pressed twice is not shown twice.
 */
const sameNews = (a: ToastOptions, b: ToastOptions): boolean =>
  typeof a.title === 'string' && a.title === b.title && a.type === b.type && (a.type !== 'error' || a.description === b.description);

/**
 * The studio's toasts over Chakra's store, one at a time, in order. A toast that repeats the news on screen
 * (five exports in a row, each "Export ready!") updates that toast's words and starts its five seconds again;
 * one that repeats news still waiting takes its place in line. Without this a burst of the same news queued
 * up one toast per event: the last of seven quick exports was announced half a minute after it was ready,
 * and any other news waited behind them.
 * Different news does not wait five seconds a piece either: while news waits, the toast on screen gets 2.5 s
 * from when its time started (at least one more second), and so does each one shown with more behind it; the last
 * gets the full five; a repeat of the news on screen then changes its words but not its time. The line holds
 * three: beyond that the oldest waiting news that is not an error gives way (it is stale by then), so nothing
 * waits much more than ten seconds; errors are never dropped.
 */
export function createStudioToaster(chakra: ToastStore) {
  let shown: Waiting | undefined;
  // The toast on screen has begun to leave (its time ran out, or it was closed or swiped away): news that
  // comes now waits for the next toast rather than calling this one back.
  let leaving = false;
  let made = 0;
  // When the toast on screen last started its time (it appeared, or a repeat started it again).
  let timerStart = 0;
  const waiting: Waiting[] = [];

  /** Its time, restarted: Chakra restarts a toast's timer only when its duration changes (hence ±1 ms). */
  const restart = (duration: number): number => {
    timerStart = Date.now();
    return duration === shown?.duration ? duration + 1 : duration;
  };
  /** A toast held by the pointer or by F8 keeps its time: its timer stays paused. */
  const isHeld = (id: string): boolean => chakra.getVisibleToasts().some((toast) => toast.id === id && (toast as { message?: string }).message === 'PAUSE');
  /** News now waits behind the toast on screen: it leaves 2.5 s after its time started, or a second from now. */
  const cutShort = (toast: Waiting) => {
    const now = Date.now();
    const left = (toast.duration ?? TOAST_MS) - (now - timerStart);
    const wanted = Math.max(BUSY_MS - (now - timerStart), LAST_LOOK_MS);
    if (wanted >= left) return;
    shown = { ...toast, duration: restart(wanted) };
    chakra.update(toast.id, shown);
  };

  const showNext = () => {
    if (shown || chakra.getCount() > 0) return;
    const next = waiting.shift();
    if (!next) return;
    leaving = false;
    timerStart = Date.now();
    shown = {
      duration: waiting.length > 0 ? BUSY_MS : TOAST_MS,
      ...next,
      onStatusChange: ({ status }) => {
        if (status === 'dismissing' && shown?.id === next.id) leaving = true;
      },
    };
    chakra.create(shown);
  };
  // The store tells its subscribers `dismiss` once a toast has left the screen (after its exit animation),
  // just before it stops counting it: the next one is shown right after.
  chakra.subscribe((message: { id?: string; dismiss?: boolean }) => {
    if (!message.dismiss) return;
    if (shown?.id === message.id) shown = undefined;
    queueMicrotask(showNext);
  });

  return {
    create(options: ToastOptions): string {
      if (shown && !leaving && sameNews(shown, options)) {
        // With other news waiting a repeat changes only the words: a slider a collaborator keeps moving must
        // not hold the line up.
        const duration = isHeld(shown.id) || waiting.length > 0 ? shown.duration : restart(TOAST_MS);
        // The store merges an update into the toast: a repeat without a description must not keep the old one.
        shown = { description: undefined, ...options, id: shown.id, duration, onStatusChange: shown.onStatusChange };
        chakra.update(shown.id, shown);
        return shown.id;
      }
      const queued = waiting.findIndex((toast) => sameNews(toast, options));
      if (queued >= 0) {
        waiting[queued] = { ...options, id: waiting[queued]!.id };
        return waiting[queued]!.id;
      }
      const id = options.id ?? `toast:${++made}`;
      waiting.push({ ...options, id });
      if (waiting.length > MAX_WAITING) {
        const stale = waiting.findIndex((toast) => toast.type !== 'error');
        if (stale >= 0) waiting.splice(stale, 1);
      }
      if (shown && !leaving && !isHeld(shown.id)) cutShort(shown);
      showNext();
      return id;
    },
    dismiss: (id?: string) => chakra.dismiss(id),
  };
}

export const toaster = createStudioToaster(store);

/** Horizontal drag distance (px) to the right past which a toast is dismissed. */
export const SWIPE_DISMISS_THRESHOLD = 50;

/**
 * Drag-to-dismiss handlers for the toast's own root element. They sit on the root itself, not on a
 * wrapper: the toaster positions each root absolutely inside its region, and a wrapper in between has no
 * width, which put the toast's left edge at the region's right edge (off-screen but for a thin strip).
 * The drag moves the root with `transform`, which composes with the `translate` the toaster animates.
 */
function useSwipeToDismiss(id: string) {
  const start = useRef<number | null>(null);
  const move = (element: HTMLElement, dx: number) => {
    element.style.transform = dx > 0 ? `translateX(${dx}px)` : '';
  };
  const release = (event: PointerEvent<HTMLElement>) => {
    const dx = start.current === null ? 0 : event.clientX - start.current;
    start.current = null;
    move(event.currentTarget, 0);
    return dx;
  };
  return {
    style: { touchAction: 'pan-y' },
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      start.current = event.clientX;
      event.currentTarget.setPointerCapture?.(event.pointerId);
    },
    onPointerMove: (event: PointerEvent<HTMLElement>) => {
      if (start.current !== null) move(event.currentTarget, event.clientX - start.current);
    },
    onPointerUp: (event: PointerEvent<HTMLElement>) => {
      if (release(event) > SWIPE_DISMISS_THRESHOLD) toaster.dismiss(id);
    },
    onPointerCancel: (event: PointerEvent<HTMLElement>) => void release(event),
  };
}

interface ShownToast {
  id?: string;
  title?: ReactNode;
  description?: ReactNode;
}

function ToastCard({ toast }: { toast: ShownToast }) {
  const swipe = useSwipeToDismiss(toast.id!);
  return (
    <Toast.Root width={{ md: 'sm' }} data-testid="toast" {...swipe}>
      <Toast.Indicator />
      <Stack gap="1" flex="1" maxWidth="100%">
        {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
        {/* Full opacity: the faded default falls below AA contrast on the coloured toasts. */}
        {toast.description && <Toast.Description opacity="1">{toast.description}</Toast.Description>}
      </Stack>
      <Toast.CloseTrigger />
    </Toast.Root>
  );
}

export function Toaster() {
  return (
    <Portal>
      <ChakraToaster toaster={store} insetInline={{ mdDown: '4' }}>
        {(toast) => <ToastCard toast={toast} />}
      </ChakraToaster>
    </Portal>
  );
}
