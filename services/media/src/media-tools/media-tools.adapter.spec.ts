import { isStillImage, looksLikeMedia } from './media-tools.adapter';

const bytes = (text: string, encoding: BufferEncoding = 'latin1') => Buffer.from(text, encoding);

describe('looksLikeMedia', () => {
  it.each([
    ['WAV', bytes('RIFF\x24\x00\x00\x00WAVEfmt ')],
    ['MP3 with ID3', bytes('ID3\x04\x00\x00\x00\x00\x00\x00')],
    ['MP3 frame', Buffer.from([0xff, 0xfb, 0x90, 0x64])],
    ['FLAC', bytes('fLaC\x00\x00\x00\x22')],
    ['Ogg', bytes('OggS\x00\x02')],
    ['MP4', bytes('\x00\x00\x00\x20ftypisom')],
    ['Matroska', Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x01])],
  ])('recognises %s', (_name, head) => {
    expect(looksLikeMedia(head)).toBe(true);
  });

  it.each([
    ['text', bytes('hello, these are lyrics')],
    ['PNG', Buffer.from('89504e470d0a1a0a', 'hex')],
    ['PDF', bytes('%PDF-1.7')],
    ['empty', Buffer.alloc(0)],
  ])('does not take %s for media', (_name, head) => {
    expect(looksLikeMedia(head)).toBe(false);
  });
});

describe('isStillImage', () => {
  it('treats a picture-only probe as an image and a video with sound as media', () => {
    expect(isStillImage({ formatName: 'png_pipe', durationSeconds: 0, hasVideo: true, video: { codec: 'png', width: 1, height: 1 } })).toBe(true);
    expect(
      isStillImage({
        formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
        durationSeconds: 4,
        hasVideo: true,
        video: { codec: 'h264', width: 320, height: 240 },
        audio: { codec: 'aac', sampleRate: 44100, channels: 2 },
      }),
    ).toBe(false);
  });
});
