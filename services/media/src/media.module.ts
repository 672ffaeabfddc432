import { DynamicModule, Module } from '@nestjs/common';
import { ServiceKitModule } from '@stemdeck/platform';
import { MediaConfig } from './config';

@Module({})
export class MediaModule {
  static forRoot(config: MediaConfig): DynamicModule {
    return {
      module: MediaModule,
      imports: [ServiceKitModule.forRoot({ service: 'media', mongodbUri: config.MONGODB_URI, storage: config })],
    };
  }
}
