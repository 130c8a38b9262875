import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { jsonBytes } from '../../../common/index.js';

type Check = (v: unknown) => boolean;
type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/**
 * class-validator's checks of the given names, restated for the values JSON.parse makes, from the constraints
 * they were declared with. Each is true only when class-validator's is (a few are stricter: never looser).
 * undefined for constraints that cannot be restated so.
 */
const CHECKS: Record<string, (constraints: unknown[]) => Check | undefined> = {
  isString: () => (v) => typeof v === 'string',
  isInt: () => (v) => typeof v === 'number' && Number.isInteger(v),
  isBoolean: () => (v) => typeof v === 'boolean',
  min: ([min]) => (typeof min === 'number' ? (v) => typeof v === 'number' && v >= min : undefined),
  max: ([max]) => (typeof max === 'number' ? (v) => typeof v === 'number' && v <= max : undefined),
  // MaxLength counts a surrogate pair as one character: within .length is within it too.
  maxLength: ([max]) => (typeof max === 'number' ? (v) => typeof v === 'string' && v.length <= max : undefined),
  // A global or sticky pattern's test() moves lastIndex, so only a plain one is restated.
  matches: ([pattern, flags]) =>
    pattern instanceof RegExp && !pattern.global && !pattern.sticky && flags === undefined
      ? (v) => typeof v === 'string' && pattern.test(v)
      : undefined,
  isIn: ([values]) => (Array.isArray(values) ? (v) => values.includes(v) : undefined),
  isObject: () => isPlainObject,
  isArray: () => Array.isArray,
  arrayMinSize: ([min]) => (typeof min === 'number' ? (v) => Array.isArray(v) && v.length >= min : undefined),
  arrayMaxSize: ([max]) => (typeof max === 'number' ? (v) => Array.isArray(v) && v.length <= max : undefined),
  maxJsonBytes: ([max]) => (typeof max === 'number' ? (v) => jsonBytes(v) <= max : undefined),
};

/** class-validator's IsObject for a body JSON.parse made (no functions there). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What {@link admit} checks a body against: the checks of each property, and the properties that must be there. */
export interface BodyRules {
  fields: Map<string, Check[]>;
  required: string[];
  /** `Class.property (constraint)` of each check that could not be restated: that property never passes. */
  gaps: string[];
}

const NEVER: Check[] = [() => false];

/**
 * The rules of `dto` read from its class-validator metadata, the same decorators the validation pipe runs, so
 * the fast path cannot accept a value they refuse. A property with a check {@link CHECKS} cannot restate never
 * passes (its bodies take the full pipe); `nested` names properties whose nested items the caller checks.
 */
export function compileBody(dto: new () => object, nested: readonly string[] = []): BodyRules {
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const m of getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false)) {
    byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
  }
  const rules: BodyRules = { fields: new Map(), required: [], gaps: [] };
  for (const [property, metas] of byProperty) {
    const checks: Check[] = [];
    let optional = false;
    let restated = true;
    for (const m of metas) {
      const check = restate(m, nested.includes(property));
      if (check === 'optional') optional = true;
      else if (typeof check === 'function') checks.push(check);
      else if (check === undefined) {
        restated = false;
        rules.gaps.push(`${dto.name}.${property} (${m.name ?? m.type})`);
      }
    }
    rules.fields.set(property, restated ? checks : NEVER);
    if (!optional) rules.required.push(property);
  }
  return rules;
}

function restate(m: ValidationMetadata, nested: boolean): Check | 'optional' | 'skip' | undefined {
  if (m.groups?.length || m.always || m.validateIf) return undefined;
  if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) return m.name === 'isOptional' ? 'optional' : undefined;
  if (m.type === ValidationTypes.NESTED_VALIDATION) return nested ? 'skip' : undefined;
  if (m.type !== ValidationTypes.CUSTOM_VALIDATION || m.each || !m.name) return undefined;
  return CHECKS[m.name]?.(m.constraints ?? []);
}

/**
 * True when `body` is a plain object with every required property, only known ones, each neither null (which
 * IsOptional lets through unchecked, left to class-validator) nor failing a check; each value is copied into
 * `into` as it passes. Allocates nothing.
 */
export function admit(rules: BodyRules, body: unknown, into?: Record<string, unknown>): boolean {
  if (!isPlainObject(body)) return false;
  for (let i = 0; i < rules.required.length; i++) if (body[rules.required[i]] === undefined) return false;
  for (const key in body) {
    const checks = rules.fields.get(key);
    const value = body[key];
    if (checks === undefined || value === null || value === undefined) return false;
    for (let i = 0; i < checks.length; i++) if (!checks[i](value)) return false;
    if (into) into[key] = value;
  }
  return true;
}
