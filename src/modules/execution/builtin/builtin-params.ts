import { ValidationError } from '../../../common/index.js';
import type { EgressPolicy } from '../../egress/index.js';
import { parseHttpCallParams } from './http-call.js';
import { parseShellCommandParams } from './shell-command.js';

/**
 * Names of the built-in handlers. Reserved: the registry refuses any other provider under one of them
 * (even where the built-in is turned off), so a task or job naming one always means the built-in, and the
 * API can check its params on submit in every shape.
 */
export const BUILTIN_HANDLERS: ReadonlySet<string> = new Set(['noop', 'http', 'shell']);

/**
 * Checks `params` for built-in handler `handler` exactly as the handler will when it runs (the same parser),
 * so a task or job its handler could only fail is refused when it is submitted. Nothing for other handlers.
 * With `egress`, an `http` url the policy refuses without DNS (an IP or `localhost` in it, a refused port on
 * a literal address, a name EGRESS_DENY lists) is refused too; the check at connect time stays the rule.
 * @throws ValidationError naming the field (`params.url`, `params.argv[2]`, ...) at fault.
 */
export function checkBuiltinParams(handler: string, params: unknown, egress?: EgressPolicy): void {
  if (handler === 'http') {
    const { url } = parseHttpCallParams(params ?? {});
    const verdict = egress?.checkUrl(url);
    if (verdict && !verdict.allowed) throw new ValidationError('params.url', `is refused by the egress policy: ${verdict.reason}`);
  } else if (handler === 'shell') parseShellCommandParams(params ?? {});
}
