import { Module } from '@nestjs/common';
import { ConsoleController } from './console.controller.js';

/** The console's page and assets, on api nodes (docs/console.md). */
@Module({ controllers: [ConsoleController] })
export class ConsoleModule {}
