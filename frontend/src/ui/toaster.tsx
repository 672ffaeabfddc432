import { createToaster, Portal, Stack, Toast, Toaster as ChakraToaster } from '@chakra-ui/react';
import { useRef, type PointerEvent } from 'react';

/** Seed 000 §4/§9: one toast visible at a time, 5000 ms by default, F8 focuses the region. */
export const toaster = createToaster({
  placement: 'bottom-end',
  max: 1,
  duration: 5000,
  hotkey: ['F8'],
  pauseOnPageIdle: true,
});

/** Horizontal drag distance (px) to the right past which a toast is dismissed. */
export const SWIPE_DISMISS_THRESHOLD = 50;

function SwipeToDismiss({ id, children }: { id: string; children: React.ReactNode }) {
  const start = useRef<number | null>(null);
  const element = useRef<HTMLDivElement>(null);
  const move = (dx: number) => {
    if (element.current) element.current.style.transform = dx > 0 ? `translateX(${dx}px)` : '';
  };
  return (
    <div
      ref={element}
      style={{ touchAction: 'pan-y', transition: 'transform 80ms' }}
      onPointerDown={(event: PointerEvent) => {
        start.current = event.clientX;
        (event.target as Element).setPointerCapture?.(event.pointerId);
      }}
      onPointerMove={(event: PointerEvent) => start.current !== null && move(event.clientX - start.current)}
      onPointerUp={(event: PointerEvent) => {
        const dx = start.current === null ? 0 : event.clientX - start.current;
        start.current = null;
        move(0);
        if (dx > SWIPE_DISMISS_THRESHOLD) toaster.dismiss(id);
      }}
      onPointerCancel={() => {
        start.current = null;
        move(0);
      }}
    >
      {children}
    </div>
  );
}

export function Toaster() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <SwipeToDismiss id={toast.id!}>
            <Toast.Root width={{ md: 'sm' }} data-testid="toast">
              <Toast.Indicator />
              <Stack gap="1" flex="1" maxWidth="100%">
                {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
                {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
              </Stack>
              <Toast.CloseTrigger />
            </Toast.Root>
          </SwipeToDismiss>
        )}
      </ChakraToaster>
    </Portal>
  );
}
