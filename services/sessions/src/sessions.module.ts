import { DynamicModule, Module } from '@nestjs/common';
import { ServiceKitModule } from '@stemdeck/platform';
import { SessionsConfig } from './config';

@Module({})
export class SessionsModule {
  static forRoot(config: SessionsConfig): DynamicModule {
    return {
      module: SessionsModule,
      imports: [ServiceKitModule.forRoot({ service: 'sessions', mongodbUri: config.MONGODB_URI })],
    };
  }
}
