import type { LoggerService } from '@nestjs/common';
import { cutText } from '../common/index.js';
import { FinishBatcher } from './finish-batcher.js';
import { type FinishBody, problemDetail, type RetryPlan, type WorkerApi } from './worker-api.js';
import { finishTrouble } from './worker-attempt.js';

/** Longest `error` of a finish, characters (the route's bound). */
const ERROR_MAX = 4000;
/** A finish is tried this long (about): past it, the lease has likely ended and the take-back owns the row. */
const FINISH_RETRY: RetryPlan = { tries: 8, baseDelayMs: 250, maxDelayMs: 5_000 };

/**
 * An app worker's finishes (docs/workers.md "finish", "finishes"), grouped by a {@link FinishBatcher}: an error cut
 * to the route's bound; a result that is not JSON, or that the api refuses (`400`, `413`), fails the attempt instead
 * of leaving it RUNNING until its lease ends; a refused finish (`404`, `409`: another attempt or the take-back owns
 * the row) is logged. Never throws.
 */
export class WorkerFinishes {
  private readonly batcher: FinishBatcher;

  constructor(
    api: WorkerApi,
    private readonly logger: LoggerService,
  ) {
    this.batcher = new FinishBatcher({
      one: (nodeId, instanceId, body) => api.finish(nodeId, instanceId, body, FINISH_RETRY),
      many: (nodeId, items) => api.finishes(nodeId, items, FINISH_RETRY),
    });
  }

  /** Finishes `instanceId` with `body`; null: the lease was lost, nothing is sent. Resolves once answered. */
  async finish(nodeId: string, instanceId: string, body: FinishBody | null): Promise<void> {
    if (!body) {
      this.logger.warn(`attempt ${instanceId} lost its lease: not finished (the api took it back)`);
      return;
    }
    if (body.error !== undefined) body.error = cutError(body.error);
    try {
      JSON.stringify(body);
    } catch (err) {
      body = {
        fencingToken: body.fencingToken,
        outcome: 'FAILED',
        error: cutError(`result is not JSON: ${String(err)}`),
      };
    }
    try {
      let a = await this.batcher.submit(nodeId, instanceId, body);
      if ((a.status === 400 || a.status === 413) && body.outcome !== 'FAILED') {
        const error = cutError(`the api refused the finish (${a.status} ${problemDetail(a.body)})`);
        a = await this.batcher.submit(nodeId, instanceId, {
          fencingToken: body.fencingToken,
          outcome: 'FAILED',
          error,
        });
      }
      const trouble = finishTrouble(instanceId, a.status, a.body);
      if (trouble) this.logger.warn(trouble);
      else this.logger.debug?.(`attempt ${instanceId} finished ${body.outcome}: ${JSON.stringify(a.body)}`);
    } catch (err) {
      this.logger.error(`attempt ${instanceId}: finish failed (${(err as Error).message}); its lease will end`);
    }
  }
}

/** A finish's `error` within the route's bound (4000 characters), a cut marked as every cut is (cutText). */
export function cutError(error: string): string {
  return cutText(error, ERROR_MAX);
}
