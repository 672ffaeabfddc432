import { databaseConfigShape, natsConfigShape, loadConfig } from '@stemdeck/platform';

export const loadJobsConfig = () => loadConfig({ ...natsConfigShape, ...databaseConfigShape });
export type JobsConfig = ReturnType<typeof loadJobsConfig>;
