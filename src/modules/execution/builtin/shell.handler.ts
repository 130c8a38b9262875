import { Injectable } from '@nestjs/common';
import { JobContext, JobFailure, JobHandlerImpl } from '../job-context.js';
import { JobHandler } from '../job-handler.decorator.js';
import { runShellCommand, ShellCommandResult } from './shell-command.js';

/**
 * Built-in `shell` handler, registered only when TICKWHEEL_ALLOW_SHELL=true. Runs `params.argv` without a
 * shell (argv[0] is the program), with a timeout and bounded output. A non-zero exit fails the attempt
 * and keeps the output as the result.
 */
@Injectable()
@JobHandler('shell')
export class ShellJobHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<ShellCommandResult> {
    const result = await runShellCommand(ctx.params, ctx.signal);
    if (result.exitCode !== 0) throw new JobFailure(result.signal ? `killed by ${result.signal}` : `exit code ${result.exitCode}`, result);
    return result;
  }
}
