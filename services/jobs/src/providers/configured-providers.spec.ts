import { FakeVideoRenderer } from '../testing/fake-video-provider';
import { configuredVideoProvider, type ProviderEnvironment } from './configured-providers';

const base: ProviderEnvironment = { DOLBY_API_URL: 'https://dolby.example', DOLBY_AUTH_URL: 'https://dolby.example', RUNWAY_API_URL: 'https://api.dev.runwayml.com', RUNWAY_MODEL: 'gen4.5' };

describe('configuredVideoProvider', () => {
  it('renders locally without a Runway key, and with one when told to', () => {
    const renderer = new FakeVideoRenderer();
    expect(configuredVideoProvider(base, renderer).name).toBe('local');
    expect(configuredVideoProvider({ ...base, RUNWAY_API_KEY: 'rw', JOBS_VIDEO_PROVIDER: 'local' }, renderer).name).toBe('local');
  });

  it('hands videos to Runway when its key is configured', () => {
    expect(configuredVideoProvider({ ...base, RUNWAY_API_KEY: 'rw' }, new FakeVideoRenderer()).name).toBe('runway');
  });
});
