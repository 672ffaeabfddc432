import { createToaster, Portal, Stack, Toast, Toaster as ChakraToaster } from '@chakra-ui/react';
import { useRef, type PointerEvent, type ReactNode } from 'react';

/** One toast visible at a time, 5000 ms by default, F8 focuses the region. */
export const toaster = createToaster({
  placement: 'bottom-end',
  max: 1,
  duration: 5000,
  hotkey: ['F8'],
  pauseOnPageIdle: true,
});

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
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => <ToastCard toast={toast} />}
      </ChakraToaster>
    </Portal>
  );
}
