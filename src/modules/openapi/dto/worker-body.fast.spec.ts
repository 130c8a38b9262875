import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { createValidationPipe } from '../filters/validation.pipe.js';
import { CLAIM_RULES, FINISH_ITEM_RULES, FINISHES_RULES, validClaim, validFinishes } from './worker-body.fast.js';
import { WorkerClaimDto, WorkerFinishesDto } from './worker.dto.js';

const clone = (v: unknown): unknown => JSON.parse(JSON.stringify(v));
const meta = (metatype: unknown): ArgumentMetadata => ({ type: 'body', metatype: metatype as never, data: '' });
/** The class-validator answer alone: the DTO, or the 400 it throws. */
const reference = (value: unknown, metatype: unknown) =>
  ValidationPipe.prototype.transform
    .call(createValidationPipe(), clone(value), meta(metatype))
    .catch((e: Error) => e);
const ID = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const VALID_ITEMS = [
  { instanceId: ID, fencingToken: 0, outcome: 'SUCCESS' },
  { instanceId: ID, fencingToken: 7, outcome: 'SUCCESS', result: { r: [1, { a: null }], s: 'é' }, handlerEndedAt: 1 },
  { instanceId: ID, fencingToken: 7, outcome: 'SUCCESS', result: 'text' },
  { instanceId: ID, fencingToken: 7, outcome: 'SUCCESS', result: [1, 2] },
  { instanceId: ID, fencingToken: 7, outcome: 'FAILED', error: 'boom', retryable: false, result: 0 },
  { instanceId: ID, fencingToken: Number.MAX_SAFE_INTEGER, outcome: 'SHUTDOWN' },
];
const INVALID_ITEMS = [
  { instanceId: ID, fencingToken: 1, outcome: 'DONE' },
  { instanceId: ID, fencingToken: 1, outcome: 'SUCCESS', result: null }, // null: left to class-validator
  { instanceId: ID, fencingToken: 1, outcome: 'FAILED', retryable: 'no' },
  { instanceId: ID, fencingToken: -1, outcome: 'SUCCESS' },
  { instanceId: ID, fencingToken: 1.5, outcome: 'SUCCESS' },
  { instanceId: 'not an id!', fencingToken: 1, outcome: 'SUCCESS' },
  { instanceId: ID, outcome: 'SUCCESS' },
  { instanceId: ID, fencingToken: 1, outcome: 'FAILED', error: 'e'.repeat(4001) },
  { instanceId: ID, fencingToken: 1, outcome: 'SUCCESS', extra: 1 },
];

describe('validation pipe fast path of the app worker bodies (docs/workers.md)', () => {
  it('should restate every check of the claim and finish DTOs (no gap sends a valid body to the slow pipe)', () => {
    expect([...CLAIM_RULES.gaps, ...FINISH_ITEM_RULES.gaps, ...FINISHES_RULES.gaps]).toEqual([]);
  });

  it('should give exactly the DTO class-validator gives, for the valid bodies it takes', async () => {
    for (const b of [{ max: 1, waitMs: 0 }, { max: 100, waitMs: 20_000 }]) {
      expect(validClaim(clone(b))).toBeInstanceOf(WorkerClaimDto);
      expect(validClaim(clone(b))).toStrictEqual(await reference(b, WorkerClaimDto));
    }
    const batch = { items: VALID_ITEMS };
    const fast = validFinishes(clone(batch));
    expect(fast).toBeInstanceOf(WorkerFinishesDto);
    expect(fast).toStrictEqual(await reference(batch, WorkerFinishesDto));
  });

  it('should leave every body it cannot prove valid to class-validator, which answers as before', async () => {
    for (const b of [{ max: 0, waitMs: 0 }, { max: 1 }, { max: 1, waitMs: 20_001 }, { max: 1, waitMs: 0, x: 1 }]) {
      expect(validClaim(clone(b))).toBeUndefined();
      const got = await createValidationPipe().transform(clone(b), meta(WorkerClaimDto)).catch((e: Error) => e);
      expect(got).toStrictEqual(await reference(b, WorkerClaimDto));
    }
    for (const item of INVALID_ITEMS) {
      const b = { items: [VALID_ITEMS[0], item] };
      expect(validFinishes(clone(b))).toBeUndefined();
      const got = await createValidationPipe().transform(clone(b), meta(WorkerFinishesDto)).catch((e: Error) => e);
      expect(got).toStrictEqual(await reference(b, WorkerFinishesDto));
    }
    for (const b of [
      { items: [] },
      { items: Array(101).fill(VALID_ITEMS[0]) },
      { items: VALID_ITEMS, more: 1 },
    ])
      expect(validFinishes(clone(b))).toBeUndefined();
  });
});
