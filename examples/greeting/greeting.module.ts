import { Module } from '@nestjs/common';
import { GreetingHandler } from './greeting.handler.js';

/** The application's handlers, as an ordinary Nest module. */
@Module({ providers: [GreetingHandler] })
export class GreetingModule {}
