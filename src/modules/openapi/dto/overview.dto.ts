import { ApiProperty } from '@nestjs/swagger';
import { Scope } from '../../metadata/index.js';
import { AppIdQuery } from './owner-query.dto.js';

/** GET /api/whoami answer: who the signature says the caller is. */
export class WhoamiDto {
  @ApiProperty({ description: 'The app the request was signed as (X-App-Id).' }) appId: string;
  @ApiProperty({ description: "This deployment's namespace (TICKWHEEL_NAMESPACE): what an admin sees all of." })
  namespace: string;
  @ApiProperty({
    enum: Scope,
    isArray: true,
    description: "The client's scopes, in the order docs/api.md \"Scopes\" lists them.",
  })
  scopes: string[];
  @ApiProperty({ description: 'Whether the client holds `admin` (every app of the namespace, ?appId= filters).' })
  admin: boolean;
}

/** `?appId=` of GET /api/overview. */
export class OverviewQueryDto {
  @AppIdQuery(
    "Admins only: this app's figures (default for an admin: every app of the namespace; for anyone else: its " +
      "own). Another app's id without the admin scope is a 403.",
  )
  appId?: string;
}

/** How many instances are (or ended) in one status. */
export class StatusCountDto {
  @ApiProperty({ description: 'An instance status.', example: 'SUCCESS' }) status: string;
  @ApiProperty({ description: 'How many instances.' }) count: number;
}

/** One hour of GET /api/overview's window. */
export class HourCountsDto {
  @ApiProperty({ description: 'The hour, UTC ISO-8601 (on the hour); the last one is the current, partial hour.' })
  hourStart: string;
  @ApiProperty({
    type: [StatusCountDto],
    description: 'Instances that reached each final status in this hour: SUCCESS, FAILED, TIMEOUT, CANCELLED.',
  })
  counts: StatusCountDto[];
}

/** One RUNNING instance of GET /api/overview. */
export class RunningInstanceDto {
  @ApiProperty({ description: 'The instance id (UUID).' }) instanceId: string;
  @ApiProperty({ description: "The task's requestId (a fire's: its instance id)." }) requestId: string;
  @ApiProperty({ description: 'The app whose instance it is.' }) appId: string;
  @ApiProperty({ type: String, nullable: true, description: 'The job it is a fire of; null for a task.' })
  jobId: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The job's code; null for a task." })
  jobCode: string | null;
  @ApiProperty({ description: 'The handler it runs.' }) handler: string;
  @ApiProperty({ type: String, nullable: true, description: 'The executor or app worker running it.' })
  nodeId: string | null;
  @ApiProperty({ description: 'The attempt running (1 is the first).' }) attempt: number;
  @ApiProperty({ type: String, nullable: true, description: 'When this attempt started, UTC ISO-8601 (ms).' })
  startedAt: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Last reported progress, 0..1; null: none.' })
  progress: number | null;
  @ApiProperty({ type: String, nullable: true, description: "The progress report's note; null: none." })
  progressNote: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'When progress was last reported, UTC ISO-8601 (ms).' })
  progressAt: string | null;
}

/** GET /api/overview answer. */
export class OverviewDto {
  @ApiProperty({ description: 'Start of the window: the first hour of `hourly`, UTC ISO-8601.' }) windowStart: string;
  @ApiProperty({ description: 'End of the window: the time of the read, UTC ISO-8601 (ms).' }) windowEnd: string;
  @ApiProperty({
    type: [StatusCountDto],
    description:
      "Instances (jobs' fires and tasks) that reached a final state in the window, by status: SUCCESS, FAILED, " +
      'TIMEOUT, CANCELLED, each listed (0 included); the sums of `hourly`.',
  })
  finished: StatusCountDto[];
  @ApiProperty({
    type: Number,
    nullable: true,
    description: '(FAILED + TIMEOUT) / (every finished instance but CANCELLED), 0..1; null when that is 0.',
  })
  failureRate: number | null;
  @ApiProperty({
    type: [HourCountsDto],
    description: 'The window by hour (finished_at rounded down to the hour, UTC), 24 buckets, oldest first.',
  })
  hourly: HourCountsDto[];
  @ApiProperty({ description: 'Instances RUNNING now.' }) running: number;
  @ApiProperty({
    type: [RunningInstanceDto],
    description: 'Up to 20 of the RUNNING instances, newest start first.',
  })
  runningNow: RunningInstanceDto[];
  @ApiProperty({
    type: [StatusCountDto],
    description:
      'Instances not running yet, by status: PENDING (delayed tasks and fires written ahead of their time ' +
      'included), WAITING (held by maxConcurrency or overlap QUEUE), DISPATCHED (on an executor queue).',
  })
  queued: StatusCountDto[];
}
