import { fileNameOf, projectNameOf } from './ingest-upload.usecase';

describe('upload names', () => {
  it.each([
    ['My Song.final.mp3', 'My Song.final.mp3', 'My Song.final'],
    ['../../etc/💿 Mix 🎧.wav', '💿 Mix 🎧.wav', '💿 Mix 🎧'],
    ['C:\\Users\\dj\\set.flac', 'set.flac', 'set'],
    ['..', 'upload', 'upload'],
    ['.hidden.mp3', 'hidden.mp3', 'hidden'],
    ['tab\there\u0000.mp3', 'tabhere.mp3', 'tabhere'],
  ])('%j → file %j, project %j', (sent, file, project) => {
    expect(fileNameOf(sent)).toBe(file);
    expect(projectNameOf(fileNameOf(sent))).toBe(project);
  });

  it('keeps project names to 120 whole characters', () => {
    const name = projectNameOf(fileNameOf(`${'🎧'.repeat(150)}.mp3`));
    expect([...name]).toHaveLength(120);
    expect(name).toBe('🎧'.repeat(120));
  });
});
