import { Module } from '@nestjs/common';
import { ResumableExportHandler } from './resumable-export.handler.js';

/** The example's handler, as an ordinary Nest module. */
@Module({ providers: [ResumableExportHandler] })
export class ResumableExportModule {}
