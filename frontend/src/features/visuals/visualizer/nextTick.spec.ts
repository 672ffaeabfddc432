/** @jest-environment jsdom */
import { nextTick } from './liveVisualFeed';

let visibility: DocumentVisibilityState = 'visible';
const frames = new Map<number, FrameRequestCallback>();
let nextFrame = 1;

function hide(): void {
  visibility = 'hidden';
  document.dispatchEvent(new Event('visibilitychange'));
}

/** Runs the display frames asked for so far (a visible page's next frame). */
function paint(): void {
  const due = [...frames.values()];
  frames.clear();
  for (const callback of due) callback(performance.now());
}

describe('nextTick (the live feed’s clock)', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    visibility = 'visible';
    frames.clear();
    jest.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    window.requestAnimationFrame = (callback) => {
      frames.set(nextFrame, callback);
      return nextFrame++;
    };
    window.cancelAnimationFrame = (id) => void frames.delete(id);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('ticks once on the next display frame while the page is visible, and the watchdog then stays quiet', () => {
    const tick = jest.fn();
    nextTick(tick);
    paint();
    jest.advanceTimersByTime(1000);
    expect(tick).toHaveBeenCalledTimes(1);
  });

  it('still ticks when the page is hidden after the display frame was asked for (the frame never comes)', () => {
    const tick = jest.fn();
    nextTick(tick);
    hide();
    jest.advanceTimersByTime(40);
    expect(tick).toHaveBeenCalledTimes(1);
    paint();
    jest.advanceTimersByTime(1000);
    expect(tick).toHaveBeenCalledTimes(1);
  });

  it('ticks on a timer while hidden, and after the watchdog’s 100 ms when a visible page gets no display frame', () => {
    const hidden = jest.fn();
    visibility = 'hidden';
    nextTick(hidden);
    jest.advanceTimersByTime(40);
    expect(hidden).toHaveBeenCalledTimes(1);

    visibility = 'visible';
    const covered = jest.fn();
    nextTick(covered);
    jest.advanceTimersByTime(99);
    expect(covered).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(covered).toHaveBeenCalledTimes(1);
  });

  it('does nothing once cancelled', () => {
    const tick = jest.fn();
    nextTick(tick)();
    hide();
    paint();
    jest.advanceTimersByTime(1000);
    expect(tick).not.toHaveBeenCalled();
  });
});
