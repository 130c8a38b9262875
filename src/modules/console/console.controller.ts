import { Controller, Get, Header, Headers, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { CONSOLE_HEADERS, type ConsoleFile, findConsoleDir, loadConsole } from './console-assets.js';

/**
 * The console (docs/console.md) at `/console`: its page and its bundle's files, unsigned (they hold no data; every
 * call the page makes is signed in it). Served from memory, read once at start, with the console's strict headers.
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleController {
  private readonly files: Map<string, ConsoleFile> | null;

  constructor() {
    const dir = findConsoleDir();
    this.files = dir ? loadConsole(dir) : null;
  }

  @Get()
  @Header('Cache-Control', 'no-store')
  page(@Headers('if-none-match') tag: string | undefined, @Res() res: Response): void {
    this.send('index.html', tag, res);
  }

  @Get('assets/:name')
  @Header('Cache-Control', 'no-cache')
  asset(@Param('name') name: string, @Headers('if-none-match') tag: string | undefined, @Res() res: Response): void {
    this.send(`assets/${name}`, tag, res);
  }

  private send(name: string, tag: string | undefined, res: Response): void {
    res.set(CONSOLE_HEADERS);
    if (!this.files) {
      res.status(503).type('text/plain').send('The console is not built: run `npm run build`.\n');
      return;
    }
    const file = this.files.get(name);
    if (!file) {
      res.status(404).type('text/plain').send('Not found.\n');
      return;
    }
    res.set('ETag', file.etag);
    if (tag === file.etag) {
      res.status(304).end();
      return;
    }
    res.status(200).type(file.type).send(file.body);
  }
}
