import { All, Controller } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SchedulerError, ErrorCode } from '../../common/index.js';

/**
 * Mounted only in a process without the `api` role (AppModule): any `/api/...` request gets a 404 problem that
 * says why, instead of Express's bare "Cannot GET /api/nodes" (a CLI pointed at an executor pod by mistake).
 */
@ApiExcludeController()
@Controller('api')
export class NoApiController {
  /** Every method, every path under /api. @throws SchedulerError(NOT_FOUND) always. */
  @All(['', '*path'])
  refuse(): never {
    throw new SchedulerError(
      ErrorCode.NOT_FOUND,
      'this process does not serve the API (its ROLES do not include api): ' +
        'send API requests to a process that runs the api role',
    );
  }
}
