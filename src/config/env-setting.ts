import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { type Bound } from '../common/index.js';

/** Transforms of a setting's text before its validators run: what cannot be converted is left for them to refuse. */

/** An integer in plain decimal becomes a number; unset or empty stays undefined. */
export const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value).trim()) ? Number(value) : value;

/** A plain decimal (no sign, no exponent) becomes a number. */
export const toNumber = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(String(value))
      ? Number(value)
      : value;

/** true/1/yes/on and false/0/no/off, any case, become booleans. */
export const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  const v = String(value).trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  return value;
};

/** An optional whole-number setting from `min` (and up to `max`, when given). */
export function IntSetting(min: number, max?: number): PropertyDecorator {
  return applyDecorators(IsOptional(), Transform(toInt), IsInt(), Min(min), ...(max === undefined ? [] : [Max(max)]));
}

/** An optional whole-number setting within a request field's bound (one that stands in for a client's own). */
export function BoundSetting(bound: Bound & { min: number }): PropertyDecorator {
  return IntSetting(bound.min, bound.max);
}
