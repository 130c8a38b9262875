import { ValidationError } from '../../../common/index.js';
import type { EgressPolicy } from '../../egress/index.js';
import { parseHttpCallParams } from './http-call.js';
import { parseNoopParams } from './noop.handler.js';
import { parseShellCommandParams } from './shell-command.js';

/** Built-in handler names, reserved even where turned off: so the API can check their params on submit. */
export const BUILTIN_HANDLERS: ReadonlySet<string> = new Set(['noop', 'http', 'shell']);

/**
 * Checks `params` of a built-in `handler` with the parser it runs, so what could only fail is refused on submit;
 * with `egress`, also an `http` url the policy refuses without DNS (connect time stays the rule).
 * @throws ValidationError naming the field (`params.url`, `params.argv[2]`, ...) at fault.
 */
export function checkBuiltinParams(handler: string, params: unknown, egress?: EgressPolicy): void {
  if (handler === 'http') {
    const { url } = parseHttpCallParams(params ?? {});
    const verdict = egress?.checkUrl(url);
    if (verdict && !verdict.allowed) {
      throw new ValidationError('params.url', `is refused by the egress policy: ${verdict.reason}`);
    }
  } else if (handler === 'shell') parseShellCommandParams(params ?? {});
  else if (handler === 'noop') parseNoopParams(params);
}
