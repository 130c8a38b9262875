import { ErrorCode, SchedulerError } from '../common/index.js';

/** A setting that is missing, malformed or contradicts another; the message names the setting. */
export class ConfigError extends SchedulerError {
  constructor(setting: string, message: string) {
    super(ErrorCode.CONFIG, `Invalid setting ${setting}: ${message}`, setting);
  }
}
