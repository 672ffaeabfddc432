import { CreateVideoJobBody, VIDEO_DEFAULT_PROMPT, VideoParameters } from './jobs';

const issues = (value: unknown) => {
  const parsed = VideoParameters.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('VideoParameters', () => {
  it('trims the prompt, defaults it to the sample prompt, and keeps what was chosen', () => {
    expect(VideoParameters.parse({ prompt: '  neon rain  ', duration: 'chorus', resolution: '4k' })).toEqual({ prompt: 'neon rain', duration: 'chorus', resolution: '4k' });
    expect(VideoParameters.parse({ duration: 'full', resolution: '720p' })).toEqual({ prompt: VIDEO_DEFAULT_PROMPT, duration: 'full', resolution: '720p' });
    expect(VideoParameters.parse({ duration: 'custom', customStart: 0, customEnd: 12.5, resolution: '1080p' })).toMatchObject({ customStart: 0, customEnd: 12.5 });
  });

  it('names each bad field', () => {
    expect(issues({ prompt: '   ', duration: 'full', resolution: '720p' })).toEqual(['prompt: Must not be empty']);
    expect(issues({ prompt: 'x'.repeat(501), duration: 'full', resolution: '720p' })).toEqual(['prompt: At most 500 characters']);
    expect(issues({ prompt: 'x'.repeat(500), duration: 'full', resolution: '720p' })).toEqual([]);
    expect(issues({ prompt: 3, duration: 'full', resolution: '720p' })).toEqual(['prompt: Must be text']);
    expect(issues({ duration: 'loop', resolution: '720p' })[0]).toMatch(/^duration: /);
    expect(issues({ duration: 'full', resolution: '8k' })[0]).toMatch(/^resolution: /);
    expect(issues({ duration: 'full' })).toEqual(['resolution: Required']);
    expect(issues({ duration: 'full', resolution: '720p', fps: 60 })[0]).toMatch(/Unrecognized key/);
  });

  it('asks a custom span for its start before its end, and only a custom one', () => {
    expect(issues({ duration: 'custom', resolution: '720p' })).toEqual(['customStart: Required for a custom duration', 'customEnd: Required for a custom duration']);
    expect(issues({ duration: 'custom', customStart: 30, customEnd: 30, resolution: '720p' })).toEqual(['customEnd: Must be after customStart']);
    expect(issues({ duration: 'custom', customStart: -1, customEnd: 30, resolution: '720p' })).toEqual(['customStart: The start must be 0 or more']);
    expect(issues({ duration: 'custom', customStart: '1', customEnd: 30, resolution: '720p' })).toEqual(['customStart: Must be a number of seconds']);
    expect(issues({ duration: 'chorus', customStart: 1, resolution: '720p' })).toEqual(['customStart: Only for a custom duration']);
  });

  it('is the body\'s parameters (so a 400 names parameters.<field>)', () => {
    const parsed = CreateVideoJobBody.safeParse({ projectId: 'p', parameters: { duration: 'custom', customStart: 5, customEnd: 2, resolution: '720p' } });
    expect(parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'))).toEqual(['parameters.customEnd']);
  });
});
