import { databaseConfigShape, natsConfigShape, storageConfigShape, loadConfig } from '@stemdeck/platform';

export const loadMediaConfig = () => loadConfig({ ...natsConfigShape, ...databaseConfigShape, ...storageConfigShape });
export type MediaConfig = ReturnType<typeof loadMediaConfig>;
