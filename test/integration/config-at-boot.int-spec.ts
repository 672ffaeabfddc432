import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

describe('configuration is validated at boot', () => {
  it.each(['media', 'jobs', 'sessions', 'export'])('%s stops with the name of a missing variable', (service) => {
    const result = spawnSync(process.execPath, [join(ROOT, 'services', service, 'dist', 'main.js')], {
      env: { PATH: process.env.PATH, NATS_URL: 'nats://127.0.0.1:1' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/Invalid configuration:/);
    expect(result.stderr).toMatch(/MONGODB_URI is required/);
  });

  it('the gateway names a bad variable and its problem', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'services', 'gateway', 'dist', 'main.js')], {
      env: { PATH: process.env.PATH, ...Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(MONGODB_URI|S3_|OIDC_)/.test(k))), SESSION_SECRET: 'short', PORT: 'eighty' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/SESSION_SECRET="short" is invalid: must be at least 32 characters/);
    expect(result.stderr).toMatch(/PORT="eighty" is invalid/);
  });

  it('jobs refuses half a cloud credential and a cloud provider picked without its credentials, naming the variables', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'services', 'jobs', 'dist', 'main.js')], {
      env: {
        PATH: process.env.PATH,
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(MONGODB_URI|S3_|NATS_URL)/.test(k))),
        DOLBY_APP_KEY: 'a-key-without-its-secret',
        JOBS_MASTERING_PROVIDER: 'landr',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/Invalid configuration:/);
    expect(result.stderr).toMatch(/DOLBY_APP_SECRET is required when DOLBY_APP_KEY is set/);
    expect(result.stderr).toMatch(/JOBS_MASTERING_PROVIDER=landr needs LANDR_API_KEY/);
  });
});
