import type { EnhanceProvider, MasteringProvider, VideoProvider } from '../jobs/jobs.ports';
import type { VideoRenderer } from '../video/video-renderer.port';
import { LocalVideoProvider, localChorus } from '../video/local-video.provider';
import type { JobScratch } from '../scratch/job-scratch';
import { CloudMasteringProvider } from './cloud-mastering.provider';
import { dolbyCloudMaster } from './dolby-cloud-master';
import { DolbyEnhanceProvider } from './dolby-enhance.provider';
import { DOLBY_DEFAULTS, DolbyMediaClient } from './dolby-media.client';
import { LandrMasteringClient } from './landr-mastering.client';
import { chooseProviders, type ProviderSettings } from './provider-choice';
import { RUNWAY_DEFAULTS, RunwayVideoClient } from './runway-video.client';
import { RunwayVideoProvider } from './runway-video.provider';

/** What the configured providers are built from: the choice's settings plus where the cloud services are. */
export interface ProviderEnvironment extends ProviderSettings {
  DOLBY_API_URL: string;
  DOLBY_AUTH_URL: string;
  RUNWAY_API_URL: string;
  RUNWAY_MODEL: string;
}

/** The same polling and retry rules for both cloud services (their documented jobs take minutes). */
const CLOUD_TIMING = { timeoutMs: DOLBY_DEFAULTS.timeoutMs, pollMs: DOLBY_DEFAULTS.pollMs, maxPollMs: DOLBY_DEFAULTS.maxPollMs, retries: DOLBY_DEFAULTS.retries };

function dolbyClient(settings: ProviderEnvironment): DolbyMediaClient {
  return new DolbyMediaClient({
    appKey: settings.DOLBY_APP_KEY ?? '',
    appSecret: settings.DOLBY_APP_SECRET ?? '',
    apiBaseUrl: settings.DOLBY_API_URL,
    authBaseUrl: settings.DOLBY_AUTH_URL,
    ...CLOUD_TIMING,
  });
}

function choice(settings: ProviderEnvironment) {
  const chosen = chooseProviders(settings);
  // loadJobsConfig already refused these settings at boot; reaching here with them is a programming error.
  if (!chosen.ok) throw new Error(`Invalid provider configuration: ${chosen.problems.join('; ')}`);
  return chosen;
}

/** The mastering provider the configuration enables (see chooseProviders); `local` is the engine in libs/audio. */
export function configuredMasteringProvider(settings: ProviderEnvironment, scratch: JobScratch, local: MasteringProvider): MasteringProvider {
  switch (choice(settings).mastering) {
    case 'landr':
      return new CloudMasteringProvider(
        'landr',
        new LandrMasteringClient({ apiKey: settings.LANDR_API_KEY ?? '', baseUrl: settings.LANDR_API_URL ?? '', ...CLOUD_TIMING }),
        scratch,
      );
    case 'dolby':
      return new CloudMasteringProvider('dolby', dolbyCloudMaster(dolbyClient(settings)), scratch);
    default:
      return local;
  }
}

/** The enhance provider the configuration enables. */
export function configuredEnhanceProvider(settings: ProviderEnvironment, scratch: JobScratch, local: EnhanceProvider): EnhanceProvider {
  return choice(settings).enhance === 'dolby' ? new DolbyEnhanceProvider(dolbyClient(settings), scratch) : local;
}

/** The video provider the configuration enables: Runway (its clip fitted to the song) by its key, else the local renderer. */
export function configuredVideoProvider(settings: ProviderEnvironment, renderer: VideoRenderer): VideoProvider {
  if (choice(settings).video !== 'runway') return new LocalVideoProvider(renderer);
  const client = new RunwayVideoClient({
    apiKey: settings.RUNWAY_API_KEY ?? '',
    baseUrl: settings.RUNWAY_API_URL,
    model: settings.RUNWAY_MODEL,
    clipSeconds: RUNWAY_DEFAULTS.clipSeconds,
    timeoutMs: RUNWAY_DEFAULTS.timeoutMs,
    pollMs: RUNWAY_DEFAULTS.pollMs,
    maxPollMs: RUNWAY_DEFAULTS.maxPollMs,
    retries: RUNWAY_DEFAULTS.retries,
  });
  return new RunwayVideoProvider(client, localChorus());
}
