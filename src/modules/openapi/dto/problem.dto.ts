import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { ApiResponseOptions } from '@nestjs/swagger';
import { ErrorCode } from '../../../common/index.js';

/** Codes an answer may carry besides the domain's ErrorCode: the filter's fallback for a framework HttpException. */
const EXTRA_CODES = ['HTTP'] as const;

/**
 * An error answer, `application/problem+json` (RFC 9457), as ProblemDetailsFilter and the signed-request
 * middleware write it. Documentation only: the filter builds the body.
 */
export class ProblemDto {
  @ApiProperty({ description: "Always 'about:blank': the status and code say what happened.", example: 'about:blank' })
  type: string;

  @ApiProperty({ description: 'The HTTP status phrase in lower case.', example: 'bad request' })
  title: string;

  @ApiProperty({ description: 'The HTTP status code (repeated from the status line).', example: 400 })
  status: number;

  @ApiProperty({ description: 'What was wrong, for a person to read (never a stack or a secret).' })
  detail: string;

  @ApiProperty({ description: 'The request path and query that this answer is for.', example: '/api/tasks' })
  instance: string;

  @ApiProperty({
    description: 'Stable machine-readable code: branch on it, not on detail.',
    enum: [...Object.values(ErrorCode), ...EXTRA_CODES],
    example: ErrorCode.VALIDATION,
  })
  code: string;

  @ApiPropertyOptional({
    description: 'The input at fault: a body field (dotted path), a query parameter or a header, when there is one.',
    example: 'triggerExpr',
  })
  field?: string;

  @ApiPropertyOptional({ description: "A 403's missing scope (README 'Tenancy and scopes').", example: 'jobs:write' })
  scope?: string;

  @ApiPropertyOptional({
    description:
      "A 503 STORAGE_UNAVAILABLE's store that cannot be reached (never its address); send again after Retry-After.",
    enum: ['database', 'redis'],
    example: 'database',
  })
  storage?: string;
}

/** The response object of one problem+json answer (for a decorator's `content` or a hand-built document). */
export function problemContent() {
  return { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemDto) } } };
}

/**
 * Documents one error answer of a route or controller as problem+json ({@link ProblemDto}).
 * @param status the HTTP status (4xx/5xx).
 * @param description when it happens and which `code` / `field` it names.
 * @param headers optional response headers (e.g. Retry-After on a 429).
 */
export const ApiProblem = (status: number, description: string, headers?: ApiResponseOptions['headers']) =>
  applyDecorators(
    ApiExtraModels(ProblemDto),
    ApiResponse({ status, description, content: problemContent(), ...(headers ? { headers } : {}) }),
  );
