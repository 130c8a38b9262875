import { Module } from '@nestjs/common';
import { CoordinationModule } from '../coordination/index.js';
import { MetadataModule } from '../metadata/index.js';
import { AppHold } from './app-hold.js';
import { AppStates } from './app-states.js';

/** {@link AppStates} and the claims' {@link AppHold}, one per process: imported by execution and dispatch. */
@Module({
  imports: [MetadataModule, CoordinationModule],
  providers: [AppStates, AppHold],
  exports: [AppStates, AppHold],
})
export class AppStatesModule {}
