import { ApiProperty } from '@nestjs/swagger';
import { BOUNDS } from '../../../common/index.js';
import { HANDLER_MESSAGE, NAME_PATTERN, NameString } from './validators.js';

/** `?handler=` of GET /api/nodes. */
export class NodeListQueryDto {
  @NameString(BOUNDS.handler, NAME_PATTERN, HANDLER_MESSAGE, {
    api: {
      description:
        'Only the nodes advertising this handler; a caller without `admin` also sees the trusted executors that ' +
        'advertise it when it has no work for it yet (never `shell` without the `shell` scope).',
    },
  })
  handler?: string;
}

/**
 * A live node's queue (docs/redis-keys.md): ids in its `ready` and `processing` lists. A caller without `admin`
 * sees on a trusted executor only its own ids: `ready` its instances dispatched there and not started, `processing` 0.
 */
export class NodeQueueDto {
  @ApiProperty({ description: 'Instance ids pushed to the node and not yet claimed.' }) ready: number;
  @ApiProperty({ description: 'Instance ids the node claimed and has not acknowledged yet.' }) processing: number;
}

/** One live executor node as GET /api/nodes shows it (docs/api.md `/api/nodes`); times ISO-8601 UTC. */
export class NodeViewDto {
  @ApiProperty({ description: 'The node id, unique among live nodes (a new one at each start).' })
  nodeId: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "Host name the node reported at start; null for a trusted executor when the caller is not admin.",
  })
  host: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The app owning an app worker's node (docs/workers.md); null for a trusted executor.",
  })
  appId: string | null;
  @ApiProperty({
    type: [String],
    description:
      'Handler names the node advertises (it runs only these); a caller without `admin` sees, of a trusted ' +
      'executor, only the handlers of its jobs, of its unfinished work and the one it asked for (`?handler=`).',
  })
  handlers: string[];
  @ApiProperty({ description: 'Most attempts the node runs at once (EXECUTOR_CONCURRENCY, default 16).' })
  capacity: number;
  @ApiProperty({
    description:
      'Attempts running on the node at its last heartbeat; to a caller without `admin`, on a trusted executor, its ' +
      'own instances RUNNING there now.',
  })
  active: number;
  @ApiProperty({ type: NodeQueueDto, description: 'Depth of the node queue now.' })
  queue: NodeQueueDto;
  @ApiProperty({ description: 'The last heartbeat, UTC ISO-8601 (ms); a node silent too long leaves the list.' })
  lastBeat: string;
  @ApiProperty({ description: 'When the node started, UTC ISO-8601 (ms).' }) startedAt: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "The database's clock minus the node's, ms, at its last check (every 30 s; positive: the node's clock is " +
      'behind; 0 on SQLite). Over 500 ms either way the node fires, leases and beats off time: run NTP ' +
      '(docs/observability.md "Clock offset"). Null for an app worker (not measured), or for a caller without admin.',
  })
  clockOffsetMs: number | null;
}

/** GET /api/nodes: every live node the caller may see, in one page (a cluster has few; no paging). */
export class NodePageDto {
  @ApiProperty({ description: 'Live nodes shown (= items.length).' }) total: number;
  @ApiProperty({ type: [NodeViewDto], description: 'Every live node the caller may see (docs/api.md).' })
  items: NodeViewDto[];
}
