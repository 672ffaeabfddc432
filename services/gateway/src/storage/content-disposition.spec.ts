import { contentDisposition } from './content-disposition';

describe('contentDisposition', () => {
  it('names a plain ASCII file with filename only', () => {
    expect(contentDisposition('attachment', 'My Song - full mix.wav')).toBe('attachment; filename="My Song - full mix.wav"');
    expect(contentDisposition('inline', 'vocals.flac')).toBe('inline; filename="vocals.flac"');
  });

  it('adds filename* (UTF-8, percent-encoded) for other names, with an ASCII stand-in in filename', () => {
    expect(contentDisposition('attachment', 'Déjà vu - stems.zip')).toBe(`attachment; filename="Deja vu - stems.zip"; filename*=UTF-8''D%C3%A9j%C3%A0%20vu%20-%20stems.zip`);
    expect(contentDisposition('attachment', '日本 - vocals.mp3')).toBe(`attachment; filename="__ - vocals.mp3"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%20-%20vocals.mp3`);
    const decoded = decodeURIComponent(contentDisposition('attachment', "Rock 'n' (Roll)* 🎸.wav").split("UTF-8''")[1]!);
    expect(decoded).toBe("Rock 'n' (Roll)* 🎸.wav");
  });

  it('never lets a quote, a backslash or a line break out of the quoted name', () => {
    const header = contentDisposition('attachment', 'a"b\\c\r\nd.wav');
    expect(header.startsWith('attachment; filename="a_b_c  d.wav"; filename*=')).toBe(true);
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.split("filename*=UTF-8''")[1]).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]+$/);
  });
});
