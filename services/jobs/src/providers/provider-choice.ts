import type { JobProvider } from '@stemdeck/proto';

/** The configuration the choice reads (a subset of JobsConfig, so the choice does not import the config module). */
export interface ProviderSettings {
  DOLBY_APP_KEY?: string;
  DOLBY_APP_SECRET?: string;
  LANDR_API_KEY?: string;
  LANDR_API_URL?: string;
  JOBS_MASTERING_PROVIDER?: 'local' | 'landr' | 'dolby';
  JOBS_ENHANCE_PROVIDER?: 'local' | 'dolby';
  RUNWAY_API_KEY?: string;
  JOBS_VIDEO_PROVIDER?: 'local' | 'runway';
}

export type EnhanceProviderName = Extract<JobProvider, 'local' | 'dolby'>;
export type VideoProviderName = Extract<JobProvider, 'local' | 'runway'>;
export type ProviderChoice =
  | { ok: true; mastering: JobProvider; enhance: EnhanceProviderName; video: VideoProviderName }
  | { ok: false; problems: string[] };

/**
 * Who does the work, from the configuration: a cloud provider is enabled only by its credentials. Mastering
 * goes to LANDR when its key is set, else to Dolby.io when its key and secret are, else to our own engine;
 * enhancement to Dolby.io when configured, else local; music videos to Runway when its key is set, else to the
 * local renderer. JOBS_MASTERING_PROVIDER / JOBS_ENHANCE_PROVIDER / JOBS_VIDEO_PROVIDER pick one explicitly
 * (e.g. `local` with keys present). Half a credential, or a provider picked without its
 * credentials, is a configuration error that names the variable.
 */
export function chooseProviders(settings: ProviderSettings): ProviderChoice {
  const problems: string[] = [];
  const dolbyHalf = Boolean(settings.DOLBY_APP_KEY) !== Boolean(settings.DOLBY_APP_SECRET);
  if (dolbyHalf) {
    const missing = settings.DOLBY_APP_KEY ? 'DOLBY_APP_SECRET' : 'DOLBY_APP_KEY';
    problems.push(`${missing} is required when ${missing === 'DOLBY_APP_KEY' ? 'DOLBY_APP_SECRET' : 'DOLBY_APP_KEY'} is set (Dolby.io needs both)`);
  }
  if (settings.LANDR_API_KEY && !settings.LANDR_API_URL) {
    problems.push('LANDR_API_URL is required when LANDR_API_KEY is set (LANDR publishes no public API; use the endpoint of your partner agreement)');
  }
  const dolby = Boolean(settings.DOLBY_APP_KEY && settings.DOLBY_APP_SECRET);
  const landr = Boolean(settings.LANDR_API_KEY && settings.LANDR_API_URL);
  if (settings.JOBS_MASTERING_PROVIDER === 'landr' && !settings.LANDR_API_KEY) problems.push('JOBS_MASTERING_PROVIDER=landr needs LANDR_API_KEY');
  if (settings.JOBS_MASTERING_PROVIDER === 'dolby' && !dolby && !dolbyHalf) problems.push('JOBS_MASTERING_PROVIDER=dolby needs DOLBY_APP_KEY and DOLBY_APP_SECRET');
  if (settings.JOBS_ENHANCE_PROVIDER === 'dolby' && !dolby && !dolbyHalf) problems.push('JOBS_ENHANCE_PROVIDER=dolby needs DOLBY_APP_KEY and DOLBY_APP_SECRET');
  if (settings.JOBS_VIDEO_PROVIDER === 'runway' && !settings.RUNWAY_API_KEY) problems.push('JOBS_VIDEO_PROVIDER=runway needs RUNWAY_API_KEY');
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    mastering: settings.JOBS_MASTERING_PROVIDER ?? (landr ? 'landr' : dolby ? 'dolby' : 'local'),
    enhance: settings.JOBS_ENHANCE_PROVIDER ?? (dolby ? 'dolby' : 'local'),
    video: settings.JOBS_VIDEO_PROVIDER ?? (settings.RUNWAY_API_KEY ? 'runway' : 'local'),
  };
}
