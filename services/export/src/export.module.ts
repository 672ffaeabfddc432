import { DynamicModule, Module } from '@nestjs/common';
import { ServiceKitModule } from '@stemdeck/platform';
import { ExportConfig } from './config';

@Module({})
export class ExportModule {
  static forRoot(config: ExportConfig): DynamicModule {
    return {
      module: ExportModule,
      imports: [ServiceKitModule.forRoot({ service: 'export', mongodbUri: config.MONGODB_URI, storage: config })],
    };
  }
}
