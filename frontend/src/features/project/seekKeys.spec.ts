import { seekTargetForKey } from './seekKeys';

describe('seek slider keys', () => {
  it('moves 5 s with the arrows, 30 s with Page Up/Down, to the ends with Home/End, inside the song', () => {
    expect(seekTargetForKey('ArrowRight', 10, 200)).toBe(15);
    expect(seekTargetForKey('ArrowUp', 10, 200)).toBe(15);
    expect(seekTargetForKey('ArrowLeft', 10, 200)).toBe(5);
    expect(seekTargetForKey('ArrowDown', 3, 200)).toBe(0);
    expect(seekTargetForKey('PageUp', 10, 200)).toBe(40);
    expect(seekTargetForKey('PageUp', 190, 200)).toBe(200);
    expect(seekTargetForKey('PageDown', 10, 200)).toBe(0);
    expect(seekTargetForKey('Home', 120, 200)).toBe(0);
    expect(seekTargetForKey('End', 12, 200)).toBe(200);
    expect(seekTargetForKey('Tab', 12, 200)).toBeNull();
    expect(seekTargetForKey('a', 12, 200)).toBeNull();
  });
});
