import { lookFromPrompt, VIDEO_MODES, VIDEO_MOTIONS, VIDEO_PALETTES } from './look';

describe('lookFromPrompt', () => {
  it('gives the same look for the same prompt, whatever its case and punctuation', () => {
    const prompt = 'Dreamy clouds over a quiet harbour at dawn';
    expect(lookFromPrompt(prompt)).toEqual(lookFromPrompt(prompt));
    expect(lookFromPrompt('NEON city, rave!!')).toEqual(lookFromPrompt('neon city rave'));
  });

  it('chooses the palette, mode and motion from the prompt\'s words', () => {
    expect(lookFromPrompt('Cyberpunk streets with neon signs and a strobe')).toEqual({ palette: 'neon', mode: expect.any(String), motion: 'strobe' });
    expect(lookFromPrompt('deep ocean water, calm and ambient')).toMatchObject({ palette: 'ocean', motion: 'calm' });
    expect(lookFromPrompt('a sunset over the desert, techno')).toMatchObject({ palette: 'sunset', motion: 'strobe' });
    expect(lookFromPrompt('fire and flames')).toMatchObject({ palette: 'sunset' });
    expect(lookFromPrompt('film noir in black and white')).toMatchObject({ palette: 'mono' });
    expect(lookFromPrompt('green forest')).toMatchObject({ palette: 'forest' });
    expect(lookFromPrompt('a rotating spectrum of the cosmos')).toMatchObject({ mode: 'spectrum' });
    expect(lookFromPrompt('an equalizer skyline')).toMatchObject({ mode: 'bars' });
    expect(lookFromPrompt('an oscilloscope trace')).toMatchObject({ mode: 'scope' });
    expect(lookFromPrompt('a waveform on a river')).toMatchObject({ mode: 'waves' });
    expect(lookFromPrompt('house party')).toMatchObject({ motion: 'pulse' });
    expect(lookFromPrompt('a cinematic journey')).toMatchObject({ motion: 'drift' });
  });

  it('matches words by their start, not inside other words', () => {
    // 'glow' (neon) inside 'afterglow' does not count, so 'sunset' chooses; 'fire' starts 'firefly'.
    expect(lookFromPrompt('afterglow sunset')).toMatchObject({ palette: 'sunset' });
    expect(lookFromPrompt('a firefly')).toMatchObject({ palette: 'sunset' });
  });

  it('falls back on a stable hash: prompts without keywords still get a valid, varied look', () => {
    const prompts = Array.from({ length: 40 }, (_, i) => `untitled idea number ${i}`);
    const looks = prompts.map(lookFromPrompt);
    for (const look of looks) {
      expect(VIDEO_PALETTES).toContain(look.palette);
      expect(VIDEO_MODES).toContain(look.mode);
      expect(VIDEO_MOTIONS).toContain(look.motion);
    }
    expect(new Set(looks.map((look) => look.palette)).size).toBeGreaterThan(3);
    expect(new Set(looks.map((look) => look.mode)).size).toBeGreaterThan(2);
    expect(new Set(looks.map((look) => look.motion)).size).toBeGreaterThan(2);
    // Pinned: a change of the hash would change the look of every prompt without keywords.
    expect(lookFromPrompt(' untitled   idea number 0 ')).toEqual({ palette: 'sunset', mode: 'spectrum', motion: 'drift' });
    expect(lookFromPrompt('a quiet harbour at dawn')).toEqual({ palette: 'mono', mode: 'scope', motion: 'pulse' });
  });
});
