/** @jest-environment jsdom */
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { VisualizerPanel } from './VisualizerPanel';

/** jsdom has neither WebGL nor a 2D canvas, nor observers: stand-ins that say "nothing here". */
beforeAll(() => {
  HTMLCanvasElement.prototype.getContext = (() => null) as never;
  Object.assign(globalThis, {
    ResizeObserver: class {
      observe() {}
      disconnect() {}
    },
    IntersectionObserver: class {
      constructor(private readonly callback: (entries: Array<{ isIntersecting: boolean }>) => void) {}
      observe() {
        this.callback([{ isIntersecting: false }]);
      }
      disconnect() {}
    },
  });
  Object.defineProperty(document, 'fullscreenEnabled', { configurable: true, value: true });
});

async function renderPanel() {
  await act(async () =>
    void render(
      <ChakraProvider value={defaultSystem}>
        <VisualizerPanel />
      </ChakraProvider>,
    ),
  );
}

describe('VisualizerPanel', () => {
  it('offers the six modes; without WebGL the two 3D modes are off with the reason in plain words, and the others work', async () => {
    await renderPanel();
    const names = screen.getAllByRole('button', { pressed: false }).concat(screen.getAllByRole('button', { pressed: true })).map((button) => button.textContent);
    for (const mode of ['Waveform', 'Spectrum', 'Particles', 'Circular', '3D Bars', 'Milkdrop']) expect(names).toContain(mode);
    expect((screen.getByRole('button', { name: '3D Bars' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Milkdrop' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('visualizer-webgl-off').textContent).toBe(
      '3D Bars and Milkdrop are off: This mode needs 3D graphics (WebGL 2), which this browser has turned off or does not offer.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Circular' }));
    expect(screen.getByRole('button', { name: 'Circular' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('visualizer-stage').dataset.mode).toBe('circular');
    // Off screen (the observer says so): it does not draw.
    expect(screen.getByTestId('visualizer-stage').dataset.drawing).toBe('false');
    expect(screen.getByTestId('visualizer-bpm').textContent).toBe('120 BPM listening for a beat');
  });

  it('the fullscreen button asks for the picture full screen and its label follows document.fullscreenElement', async () => {
    await renderPanel();
    const screenBox = screen.getByTestId('visualizer-screen');
    let fullscreenElement: Element | null = null;
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => fullscreenElement });
    screenBox.requestFullscreen = jest.fn(async () => {
      fullscreenElement = screenBox;
      document.dispatchEvent(new Event('fullscreenchange'));
    });
    document.exitFullscreen = jest.fn(async () => {
      fullscreenElement = null;
      document.dispatchEvent(new Event('fullscreenchange'));
    });
    const button = screen.getByTestId('visualizer-fullscreen');
    expect(button.textContent).toBe(' Fullscreen');
    await act(async () => void fireEvent.click(button));
    expect(screenBox.requestFullscreen).toHaveBeenCalled();
    expect(button.textContent).toBe(' Exit fullscreen');
    // Esc: the browser leaves full screen by itself; the label follows.
    await act(async () => {
      fullscreenElement = null;
      document.dispatchEvent(new Event('fullscreenchange'));
    });
    expect(button.textContent).toBe(' Fullscreen');
  });
});
