import { ConfigError, databaseConfigShape, loadConfig, natsServiceConfigShape, storageConfigShape } from './config';

describe('loadConfig', () => {
  const shape = { ...databaseConfigShape, ...storageConfigShape };
  const good = { MONGODB_URI: 'mongodb://127.0.0.1:27017/x', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b' };

  it('returns typed values with defaults applied', () => {
    const config = loadConfig(shape, good);
    expect(config.S3_BUCKET).toBe('stemdeck');
    expect(config.MONGODB_URI).toBe(good.MONGODB_URI);
  });

  it('names every missing or malformed variable', () => {
    const attempt = () => loadConfig(shape, { ...good, MONGODB_URI: 'postgres://x', S3_ACCESS_KEY: undefined, S3_BUCKET: 'Bad_Bucket' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/MONGODB_URI="postgres:\/\/x" is invalid: must be a mongodb/);
      expect(message).toMatch(/S3_ACCESS_KEY is required/);
      expect(message).toMatch(/S3_BUCKET="Bad_Bucket" is invalid/);
      expect((error as ConfigError).problems).toHaveLength(3);
    }
  });

  it('refuses a database URI that asks for unacknowledged writes', () => {
    expect(() => loadConfig(shape, { ...good, MONGODB_URI: 'mongodb://127.0.0.1:27017/x?retryWrites=false&w=0' })).toThrow(
      /MONGODB_URI=.* is invalid: must not ask for unacknowledged writes/,
    );
    expect(loadConfig(shape, { ...good, MONGODB_URI: 'mongodb://127.0.0.1:27017/x?w=majority' }).MONGODB_URI).toContain('w=majority');
  });

  it('reads the probe port of a NATS service: unset or empty means none, and a bad one is named', () => {
    const local = loadConfig(natsServiceConfigShape, {});
    expect(local.HEALTH_PORT).toBeUndefined();
    expect(local.HEALTH_HOST).toBe('127.0.0.1');
    expect(loadConfig(natsServiceConfigShape, { HEALTH_PORT: '' }).HEALTH_PORT).toBeUndefined();
    expect(loadConfig(natsServiceConfigShape, { HEALTH_PORT: '8081', HEALTH_HOST: '0.0.0.0' })).toMatchObject({ HEALTH_PORT: 8081, HEALTH_HOST: '0.0.0.0' });
    expect(() => loadConfig(natsServiceConfigShape, { HEALTH_PORT: 'http' })).toThrow(/HEALTH_PORT="http" is invalid/);
  });
});
