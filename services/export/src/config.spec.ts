import { loadExportConfig } from './config';

describe('loadExportConfig', () => {
  const base = { MONGODB_URI: 'mongodb://127.0.0.1/x', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY: 'k', S3_SECRET_KEY: 's' } as NodeJS.ProcessEnv;

  it('refuses timers longer than Node can wait (they would fire after 1 ms, over and over)', () => {
    expect(() => loadExportConfig({ ...base, EXPORT_SWEEP_INTERVAL_MS: '3000000000' })).toThrow(/EXPORT_SWEEP_INTERVAL_MS/);
    expect(() => loadExportConfig({ ...base, EXPORT_ACK_WAIT_MS: '3000000000' })).toThrow(/EXPORT_ACK_WAIT_MS/);
  });

  it('takes the longest timer Node can wait', () => {
    expect(loadExportConfig({ ...base, EXPORT_SWEEP_INTERVAL_MS: '2147483647' }).EXPORT_SWEEP_INTERVAL_MS).toBe(2_147_483_647);
  });
});
