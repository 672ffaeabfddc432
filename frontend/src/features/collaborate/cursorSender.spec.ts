import { CursorSender, pageFraction } from './cursorSender';

function fakeTimers() {
  let now = 0;
  const timers: Array<{ at: number; run: () => void } | null> = [];
  return {
    now: () => now,
    setTimer: (run: () => void, ms: number) => timers.push({ at: now + ms, run }) - 1,
    clearTimer: (id: unknown) => void (timers[id as number] = null),
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = timers.map((t, i) => [t, i] as const).filter(([t]) => t && t.at <= until).sort(([a], [b]) => a!.at - b!.at)[0];
        if (!due) break;
        now = due[0]!.at;
        timers[due[1]] = null;
        due[0]!.run();
      }
      now = until;
    },
  };
}

describe('CursorSender', () => {
  it('sends the first move at once, then at most one per interval: the latest of each burst, nothing while resting', () => {
    const clock = fakeTimers();
    const sent: Array<{ x: number; y: number; at: number }> = [];
    const sender = new CursorSender({ send: (p) => sent.push({ ...p, at: clock.now() }), intervalMs: 100, ...clock });
    sender.moved({ x: 0.1, y: 0.1 });
    expect(sent).toEqual([{ x: 0.1, y: 0.1, at: 0 }]);
    for (let t = 1; t <= 250; t += 10) {
      clock.advance(10);
      sender.moved({ x: t / 1000, y: 0.5 });
    }
    clock.advance(1000);
    const gaps = sent.slice(1).map((s, i) => s.at - sent[i]!.at);
    expect(gaps.every((gap) => gap >= 100)).toBe(true);
    expect(sent.length).toBe(4); // 0, 100, 200, 300 ms
    expect(sent.at(-1)).toMatchObject({ x: 0.241, y: 0.5 }); // the last position is never lost
    clock.advance(1000);
    expect(sent.length).toBe(4);
  });

  it('stops: a pending position is not sent', () => {
    const clock = fakeTimers();
    const sent: unknown[] = [];
    const sender = new CursorSender({ send: (p) => sent.push(p), intervalMs: 100, ...clock });
    sender.moved({ x: 0, y: 0 });
    sender.moved({ x: 1, y: 1 });
    sender.stop();
    clock.advance(500);
    expect(sent).toEqual([{ x: 0, y: 0 }]);
  });

  it('keeps a little over the gateway’s 100 ms limit by default', () => {
    const clock = fakeTimers();
    const sent: number[] = [];
    const sender = new CursorSender({ send: () => sent.push(clock.now()), ...clock });
    sender.moved({ x: 0, y: 0 });
    clock.advance(5);
    sender.moved({ x: 1, y: 0 });
    clock.advance(500);
    expect(sent[1]! - sent[0]!).toBeGreaterThan(100);
  });
});

describe('pageFraction', () => {
  it('is the share of the page, kept inside 0–1', () => {
    expect(pageFraction(640, 300, 1280, 1200)).toEqual({ x: 0.5, y: 0.25 });
    expect(pageFraction(-5, 5000, 1280, 1200)).toEqual({ x: 0, y: 1 });
    expect(pageFraction(10, 10, 0, 0)).toEqual({ x: 0, y: 0 });
  });
});
