import { databaseConfigShape, natsConfigShape, loadConfig } from '@stemdeck/platform';

export const loadSessionsConfig = () => loadConfig({ ...natsConfigShape, ...databaseConfigShape });
export type SessionsConfig = ReturnType<typeof loadSessionsConfig>;
