import { databaseConfigShape, natsConfigShape, storageConfigShape, loadConfig } from '@stemdeck/platform';

export const loadExportConfig = () => loadConfig({ ...natsConfigShape, ...databaseConfigShape, ...storageConfigShape });
export type ExportConfig = ReturnType<typeof loadExportConfig>;
