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
 * @throws ValidationError naming the field (`params.url`, `params.argv[2]`, ...) at fault.
 */
export function checkBuiltinParams(handler: string, params: unknown): void {
  if (handler === 'http') parseHttpCallParams(params ?? {});
  else if (handler === 'shell') parseShellCommandParams(params ?? {});
}
