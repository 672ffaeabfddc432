import { databaseConfigShape, natsServiceConfigShape, loadConfig } from '@stemdeck/platform';

export const loadSessionsConfig = () => loadConfig({ ...natsServiceConfigShape, ...databaseConfigShape });
export type SessionsConfig = ReturnType<typeof loadSessionsConfig>;
