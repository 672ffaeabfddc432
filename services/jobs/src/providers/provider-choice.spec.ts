import { ConfigError } from '@stemdeck/platform';
import { loadJobsConfig } from '../config';
import { chooseProviders } from './provider-choice';

const DOLBY = { DOLBY_APP_KEY: 'key', DOLBY_APP_SECRET: 'secret' };
const LANDR = { LANDR_API_KEY: 'landr-key', LANDR_API_URL: 'https://partner.example/api' };

describe('chooseProviders', () => {
  it('uses our own engines when no cloud credential is configured', () => {
    expect(chooseProviders({})).toEqual({ ok: true, mastering: 'local', enhance: 'local', video: 'local' });
  });

  it('enables Dolby.io for both kinds by its key and secret', () => {
    expect(chooseProviders(DOLBY)).toEqual({ ok: true, mastering: 'dolby', enhance: 'dolby', video: 'local' });
  });

  it('masters with LANDR when its key and endpoint are set, enhancing with Dolby.io when that is configured too', () => {
    expect(chooseProviders(LANDR)).toEqual({ ok: true, mastering: 'landr', enhance: 'local', video: 'local' });
    expect(chooseProviders({ ...LANDR, ...DOLBY })).toEqual({ ok: true, mastering: 'landr', enhance: 'dolby', video: 'local' });
  });

  it('follows an explicit choice, local included while keys are present', () => {
    expect(chooseProviders({ ...LANDR, ...DOLBY, JOBS_MASTERING_PROVIDER: 'dolby', JOBS_ENHANCE_PROVIDER: 'local' })).toEqual({ ok: true, mastering: 'dolby', enhance: 'local', video: 'local' });
    expect(chooseProviders({ ...DOLBY, JOBS_MASTERING_PROVIDER: 'local' })).toEqual({ ok: true, mastering: 'local', enhance: 'dolby', video: 'local' });
  });

  it('renders videos with Runway when its key is set, locally otherwise or when picked', () => {
    expect(chooseProviders({ RUNWAY_API_KEY: 'rw' })).toEqual({ ok: true, mastering: 'local', enhance: 'local', video: 'runway' });
    expect(chooseProviders({ RUNWAY_API_KEY: 'rw', JOBS_VIDEO_PROVIDER: 'local' })).toEqual({ ok: true, mastering: 'local', enhance: 'local', video: 'local' });
    expect(chooseProviders({ JOBS_VIDEO_PROVIDER: 'runway' })).toEqual({ ok: false, problems: ['JOBS_VIDEO_PROVIDER=runway needs RUNWAY_API_KEY'] });
  });

  it('names what is missing: half a Dolby credential, a LANDR key without its endpoint, a provider picked without credentials', () => {
    expect(chooseProviders({ DOLBY_APP_KEY: 'key' })).toEqual({ ok: false, problems: ['DOLBY_APP_SECRET is required when DOLBY_APP_KEY is set (Dolby.io needs both)'] });
    expect(chooseProviders({ DOLBY_APP_SECRET: 'secret' })).toEqual({ ok: false, problems: ['DOLBY_APP_KEY is required when DOLBY_APP_SECRET is set (Dolby.io needs both)'] });
    expect(chooseProviders({ LANDR_API_KEY: 'k' })).toMatchObject({ ok: false, problems: [expect.stringMatching(/^LANDR_API_URL is required when LANDR_API_KEY is set/)] });
    expect(chooseProviders({ JOBS_MASTERING_PROVIDER: 'landr', JOBS_ENHANCE_PROVIDER: 'dolby' })).toEqual({
      ok: false,
      problems: ['JOBS_MASTERING_PROVIDER=landr needs LANDR_API_KEY', 'JOBS_ENHANCE_PROVIDER=dolby needs DOLBY_APP_KEY and DOLBY_APP_SECRET'],
    });
  });
});

describe('loadJobsConfig', () => {
  const base = { MONGODB_URI: 'mongodb://127.0.0.1:1/x', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b' };

  it('treats an empty credential as unset and keeps the documented cloud endpoints', () => {
    const config = loadJobsConfig({ ...base, DOLBY_APP_KEY: '', DOLBY_APP_SECRET: '', LANDR_API_KEY: '' });
    expect(config.DOLBY_APP_KEY).toBeUndefined();
    expect(config.DOLBY_API_URL).toBe('https://api.dolby.com');
    expect(config.DOLBY_AUTH_URL).toBe('https://api.dolby.io');
    expect(chooseProviders(config)).toEqual({ ok: true, mastering: 'local', enhance: 'local', video: 'local' });
  });

  it('stops the boot on a provider problem, named like every other configuration error', () => {
    expect(() => loadJobsConfig({ ...base, DOLBY_APP_KEY: 'key' })).toThrow(ConfigError);
    expect(() => loadJobsConfig({ ...base, DOLBY_APP_KEY: 'key' })).toThrow(/DOLBY_APP_SECRET is required when DOLBY_APP_KEY is set/);
    expect(() => loadJobsConfig({ ...base, JOBS_ENHANCE_PROVIDER: 'landr' })).toThrow(/JOBS_ENHANCE_PROVIDER="landr" is invalid/);
  });
});
