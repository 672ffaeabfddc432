import { audioFileName, safeSongName, zipFileName } from './file-names';

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

  it('keeps at most 100 characters (whole characters, no half surrogate pairs)', () => {
    expect(Array.from(safeSongName('🎵'.repeat(150)))).toHaveLength(100);
    expect(safeSongName('🎵'.repeat(150))).toBe('🎵'.repeat(100));
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
