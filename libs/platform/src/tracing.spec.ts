import { redactSecretPath } from './tracing';

describe('redactSecretPath', () => {
  it('replaces a share token in the public API and the player path, keeping the rest', () => {
    expect(redactSecretPath('/api/share/abcDEF_-123')).toBe('/api/share/:token');
    expect(redactSecretPath('/api/share/abcDEF_-123/stems/s1/audio?x=1')).toBe('/api/share/:token/stems/s1/audio?x=1');
    expect(redactSecretPath('/s/abcDEF_-123')).toBe('/s/:token');
  });

  it('leaves other paths alone', () => {
    expect(redactSecretPath('/api/projects/p1/share-links')).toBe('/api/projects/p1/share-links');
    expect(redactSecretPath('/studio')).toBe('/studio');
  });
});
