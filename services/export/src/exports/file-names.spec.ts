import { audioFileName, safeSongName, SONG_NAME_MAX_BYTES, zipFileName } from './file-names';

describe('safeSongName', () => {
  it.each<[string, string]>([
    ['My Song', 'My Song'],
    ['AC/DC: Back in Black?', 'AC DC Back in Black'],
    ['a<b>c|d*e"f\\g', 'a b c d e f g'],
    ['  spaced \t out \n ', 'spaced out'],
    ['...dots...', 'dots'],
    ['Beyoncé – Déjà vu 日本', 'Beyoncé – Déjà vu 日本'],
    ['CON', 'CON_'],
    ['nul', 'nul_'],
    ['???', 'Untitled'],
    ['', 'Untitled'],
  ])('%j → %j', (name, safe) => {
    expect(safeSongName(name)).toBe(safe);
  });

  it('keeps at most 150 UTF-8 bytes, cut between whole characters (a file name may hold 255 bytes, not characters)', () => {
    // An emoji is 4 bytes, a CJK character 3: 37 and 50 of them fit.
    expect(safeSongName('🎵'.repeat(100))).toBe('🎵'.repeat(37));
    expect(safeSongName('日'.repeat(100))).toBe('日'.repeat(50));
    expect(safeSongName('a'.repeat(149) + '日本')).toBe('a'.repeat(149));
    // A letter with its combining mark, or a flag's two halves, are never split.
    expect(safeSongName('a'.repeat(148) + 'e\u0301\u0301')).toBe('a'.repeat(148));
    expect(safeSongName('a'.repeat(145) + '🇯🇵')).toBe('a'.repeat(145));
    for (const name of ['🎵'.repeat(100), '日'.repeat(100), 'é'.repeat(200), 'x'.repeat(300)]) {
      const safe = safeSongName(name);
      expect(Buffer.byteLength(safe, 'utf8')).toBeLessThanOrEqual(SONG_NAME_MAX_BYTES);
      expect(Buffer.from(safe, 'utf8').toString('utf8')).toBe(safe);
      expect(safe).not.toMatch(/[\uD800-\uDFFF]/u);
    }
  });

  it('drops invisible format characters: a bidi override cannot make a name look like another file type', () => {
    expect(safeSongName('evil\u202Egpj.exe')).toBe('evilgpj.exe');
    expect(safeSongName('Zero\u200Bwidth\u200D\uFEFF\u2066song\u2069')).toBe('Zerowidthsong');
    expect(safeSongName('\u202E\u200B')).toBe('Untitled');
  });
});

describe('export file names', () => {
  it('names stems and mixes after the song, with their variant', () => {
    expect(audioFileName('Song', 'vocals', 'raw', 'wav')).toBe('Song - vocals.wav');
    expect(audioFileName('Song', 'full mix', 'mastered', 'flac')).toBe('Song - full mix (mastered).flac');
    expect(audioFileName('Song', 'bass', 'enhanced', 'mp3')).toBe('Song - bass (enhanced).mp3');
    expect(zipFileName('Song', 'stems', ['raw'])).toBe('Song - stems.zip');
    expect(zipFileName('Song', 'full mix', ['mastered', 'enhanced'])).toBe('Song - full mix (mastered and enhanced).zip');
  });
});
