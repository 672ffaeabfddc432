import { DynamicModule, Module } from '@nestjs/common';
import { ServiceKitModule } from '@stemdeck/platform';
import { JobsConfig } from './config';

@Module({})
export class JobsModule {
  static forRoot(config: JobsConfig): DynamicModule {
    return {
      module: JobsModule,
      imports: [ServiceKitModule.forRoot({ service: 'jobs', mongodbUri: config.MONGODB_URI })],
    };
  }
}
