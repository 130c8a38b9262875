import { admit, compileBody } from './fast-body.js';
import { WorkerClaimDto, WorkerFinishesDto, WorkerFinishItemDto } from './worker.dto.js';

/** The checks of the app worker's hot bodies (docs/workers.md): a claim, and a batch of finishes and its items. */
export const CLAIM_RULES = compileBody(WorkerClaimDto);
export const FINISH_ITEM_RULES = compileBody(WorkerFinishItemDto);
export const FINISHES_RULES = compileBody(WorkerFinishesDto, ['items']);

/** The WorkerClaimDto the validation pipe would make of a certainly valid `body`; else undefined (the full pipe). */
export function validClaim(body: unknown): WorkerClaimDto | undefined {
  const dto = new WorkerClaimDto();
  return admit(CLAIM_RULES, body, dto as unknown as Record<string, unknown>) ? dto : undefined;
}

/** As {@link validClaim}, for a `finishes` body: its `items` within their bounds, each certainly valid. */
export function validFinishes(body: unknown): WorkerFinishesDto | undefined {
  const out = new WorkerFinishesDto();
  if (!admit(FINISHES_RULES, body, out as unknown as Record<string, unknown>)) return undefined;
  const items: WorkerFinishItemDto[] = [];
  for (const item of (body as { items: unknown[] }).items) {
    const dto = new WorkerFinishItemDto();
    if (!admit(FINISH_ITEM_RULES, item, dto as unknown as Record<string, unknown>)) return undefined;
    items.push(dto);
  }
  out.items = items;
  return out;
}
