import { ValidationError as ClassValidatorError, ValidationPipe } from '@nestjs/common';
import { ValidationError } from '../../../common/index.js';

/**
 * Body/query validation with class-validator: unknown properties are refused (a typo is an error, not
 * silently ignored) and the first failure becomes a 400 naming the field by its dotted path.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors: ClassValidatorError[]) => {
      const [path, message] = firstError(errors, '');
      return new ValidationError(path, message);
    },
  });
}

function firstError(errors: ClassValidatorError[], prefix: string): [string, string] {
  const e = errors[0];
  const path = prefix ? `${prefix}.${e.property}` : e.property;
  if (e.constraints) return [path, Object.values(e.constraints)[0]];
  if (e.children?.length) return firstError(e.children, path);
  return [path, `${path} is invalid`];
}
