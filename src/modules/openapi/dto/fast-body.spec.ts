import { IsEmail, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { admit, compileBody } from './fast-body.js';
import { BATCH_RULES, TASK_RULES } from './task-body.fast.js';
import { SubmitTaskDto } from './task.dto.js';

class Sample {
  @IsString()
  @Matches(/^[a-z]{1,3}$/)
  name: string;

  @IsOptional()
  @IsInt()
  @Min(2)
  @Max(5)
  n?: number;

  @IsOptional()
  @IsEmail()
  email?: string;

  @IsOptional()
  @ValidateIf(() => true)
  @IsString()
  note?: string;

  @IsOptional()
  @Matches(/^a/g)
  flagged?: string;
}

describe(compileBody.name, () => {
  const sut = compileBody(Sample);

  it("should read the checks from the DTO's own decorators, bounds included", () => {
    expect(admit(sut, { name: 'ab', n: 5 })).toBe(true);
    expect(admit(sut, { name: 'ab', n: 2 })).toBe(true);
    expect(admit(sut, { name: 'ab', n: 6 })).toBe(false);
    expect(admit(sut, { name: 'ab', n: 1 })).toBe(false);
    expect(admit(sut, { name: 'ab', n: 2.5 })).toBe(false);
    expect(admit(sut, { name: 'abcd' })).toBe(false);
  });

  it('should refuse a missing required property, an unknown one, and a null optional one', () => {
    expect(admit(sut, { n: 3 })).toBe(false);
    expect(admit(sut, { name: 'ab', other: 1 })).toBe(false);
    expect(admit(sut, { name: 'ab', toString: 'x' })).toBe(false);
    expect(admit(sut, { name: 'ab', n: null })).toBe(false);
    expect(admit(sut, ['ab'])).toBe(false);
  });

  it('should never pass a property with a check it cannot restate, and list it', () => {
    expect(sut.gaps).toEqual([
      'Sample.email (isEmail)',
      'Sample.note (conditionalValidation)',
      'Sample.flagged (matches)',
    ]);
    expect(admit(sut, { name: 'ab', email: 'a@b.example' })).toBe(false);
    expect(admit(sut, { name: 'ab', flagged: 'a' })).toBe(false);
  });

  it('should copy what it admits into the target, in the order of the body', () => {
    const into: Record<string, unknown> = {};
    expect(admit(sut, { n: 4, name: 'x' }, into)).toBe(true);
    expect(Object.keys(into)).toEqual(['n', 'name']);
  });

  it('should restate every check of a task body and of a batch, so a valid one never takes the full pipe', () => {
    expect([...TASK_RULES.gaps, ...BATCH_RULES.gaps]).toEqual([]);
    expect(TASK_RULES.required).toEqual([]); // handler or taskCode: canonicalTask requires one, in either path
    expect(BATCH_RULES.required).toEqual(['tasks']);
    expect([...TASK_RULES.fields.keys()].sort()).toEqual(Object.keys(new SubmitTaskDto()).sort());
  });
});
