import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { type Bound, BOUNDS, jsonBytes, nameMessage, namePattern } from '../../../common/index.js';

/** A handler name: 1-128 of A-Z a-z 0-9 _ . : - (its VARCHAR(128) column). */
export const NAME_PATTERN = namePattern('A-Za-z0-9_.:-', BOUNDS.handler);
/** A task's requestId: the handler's characters (its VARCHAR(128) column). */
export const REQUEST_ID_PATTERN = namePattern('A-Za-z0-9_.:-', BOUNDS.requestId);
/** A job code: 1-128 of A-Z a-z 0-9 _ . - (its VARCHAR(128) column). */
export const CODE_PATTERN = namePattern('A-Za-z0-9_.-', BOUNDS.code);
/** A crontab import's file name, used in the job codes it makes. */
export const FILE_NAME_PATTERN = namePattern('A-Za-z0-9_.-', BOUNDS.fileName);

export const HANDLER_MESSAGE = nameMessage('handler', 'A-Za-z0-9_.:-', BOUNDS.handler);

/**
 * The value's JSON text is at most `max` UTF-8 bytes (the size it takes in its TEXT column). One check for
 * every JSON field a DTO stores (task, job and trigger-now params, shardParams); see common/limits.ts.
 */
export function MaxJsonBytes(max: number): PropertyDecorator {
  return ValidateBy({
    name: 'maxJsonBytes',
    constraints: [max],
    validator: {
      validate: (v: unknown) => jsonBytes(v) <= max,
      defaultMessage: (args) =>
        `${args?.property} must be at most ${max} bytes as JSON (got ${jsonBytes(args?.value)})`,
    },
  });
}

/** How a bounded field is declared: its Swagger text, and whether it is required or a query parameter. */
export interface FieldOptions {
  api?: ApiPropertyOptions;
  /** A body field that must be there (default: optional, so a missing or null value is not checked). */
  required?: boolean;
  /** A query parameter: its text becomes a number before the checks (plain decimal digits only, {@link QueryInt}). */
  query?: boolean;
}

/**
 * Applies property decorators as if written stacked in this order (TypeScript applies the lowest first), so a
 * composite registers its checks in the order the hand-written stack did.
 */
export function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (let i = decorators.length - 1; i >= 0; i--) decorators[i](target, key);
  };
}

function presence(api: ApiPropertyOptions, opts: FieldOptions): PropertyDecorator[] {
  return opts.required ? [ApiProperty(api)] : [ApiPropertyOptional(api), IsOptional()];
}

/** A query number's text: decimal digits, nothing else (no sign: no query number takes a negative value). */
const DECIMAL = /^[0-9]+$/;

/**
 * A query parameter's text as a number, for the checks after it: plain decimal digits only, else NaN (so IsInt
 * refuses it, naming the parameter). `Number()` took `0x10`, `1e1`, `+5`, ` 7 ` and an empty string (0).
 */
export function QueryInt(): PropertyDecorator {
  return Transform(({ value }) => (typeof value === 'string' && DECIMAL.test(value) ? Number(value) : NaN));
}

/**
 * An integer from `bound.min` to `bound.max` (IsInt, Min, Max), shown in Swagger as its minimum and maximum;
 * `intMessage` replaces IsInt's message.
 */
export function BoundedInt(
  bound: Bound & { min: number },
  opts: FieldOptions & { intMessage?: string } = {},
): PropertyDecorator {
  const api = { ...opts.api, minimum: bound.min, maximum: bound.max };
  return stacked(
    ...presence(api, opts),
    ...(opts.query ? [QueryInt()] : []),
    IsInt(
      opts.intMessage || opts.query
        ? { message: opts.intMessage ?? '$property must be an integer in decimal digits (0-9)' }
        : undefined,
    ),
    Min(bound.min),
    Max(bound.max),
  );
}

/** A string of at most `bound.max` characters (IsString, MaxLength), shown in Swagger as its maxLength. */
export function BoundedString(bound: Bound, opts: FieldOptions = {}): PropertyDecorator {
  return stacked(...presence({ ...opts.api, maxLength: bound.max }, opts), IsString(), MaxLength(bound.max));
}

/**
 * A name matching `pattern` (built from `bound`), refused with `message`; Swagger shows the bound's maxLength.
 */
export function NameString(bound: Bound, pattern: RegExp, message: string, opts: FieldOptions = {}): PropertyDecorator {
  return stacked(...presence({ ...opts.api, maxLength: bound.max }, opts), IsString(), Matches(pattern, { message }));
}

/**
 * Text for people (a name shown in views and logs): no C0 or C1 control character (a line break or an escape
 * sequence in a log line or a terminal) and no lone surrogate (not UTF-8: MySQL would store a replacement
 * character). A plain pattern over UTF-16 code units, so the fast body path restates it.
 */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
export const PEOPLE_TEXT = /^(?:[^\x00-\x1f\x7f-\x9f\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;

/** A string of at most `bound.max` characters matching {@link PEOPLE_TEXT}, refused naming the field. */
export function PeopleString(bound: Bound, opts: FieldOptions = {}): PropertyDecorator {
  return stacked(
    ...presence({ ...opts.api, maxLength: bound.max }, opts),
    IsString(),
    MaxLength(bound.max),
    Matches(PEOPLE_TEXT, { message: '$property must be text without control characters or lone surrogates' }),
  );
}

/** A JSON object of at most `bound.max` bytes as JSON (IsObject, MaxJsonBytes). */
export function BoundedJson(bound: Bound, opts: FieldOptions = {}): PropertyDecorator {
  return stacked(...presence({ ...opts.api }, opts), IsObject(), MaxJsonBytes(bound.max));
}
