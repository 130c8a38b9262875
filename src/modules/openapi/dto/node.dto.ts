import { ApiProperty } from '@nestjs/swagger';

/** A live node's queue (docs/redis-keys.md): ids in its `ready` and `processing` lists. */
export class NodeQueueDto {
  @ApiProperty({ description: 'Instance ids pushed to the node and not yet claimed.' }) ready: number;
  @ApiProperty({ description: 'Instance ids the node claimed and has not acknowledged yet.' }) processing: number;
}

/** One live executor node as GET /api/nodes shows it (docs/api.md `/api/nodes`); times ISO-8601 UTC. */
export class NodeViewDto {
  @ApiProperty({ description: 'The node id, unique among live nodes (a new one at each start).' })
  nodeId: string;
  @ApiProperty({ description: 'Host name the node reported at start.' }) host: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The app owning an app worker's node (docs/workers.md); null for a trusted executor.",
  })
  appId: string | null;
  @ApiProperty({ type: [String], description: 'Handler names the node advertises (it runs only these).' })
  handlers: string[];
  @ApiProperty({ description: 'Most attempts the node runs at once (EXECUTOR_CONCURRENCY, default 16).' })
  capacity: number;
  @ApiProperty({ description: 'Attempts running on the node at its last heartbeat.' }) active: number;
  @ApiProperty({ type: NodeQueueDto, description: 'Depth of the node queue now.' })
  queue: NodeQueueDto;
  @ApiProperty({ description: 'The last heartbeat, UTC ISO-8601 (ms); a node silent too long leaves the list.' })
  lastBeat: string;
  @ApiProperty({ description: 'When the node started, UTC ISO-8601 (ms).' }) startedAt: string;
}

/** GET /api/nodes: every live node, in one page (a cluster has few; no paging). */
export class NodePageDto {
  @ApiProperty({ description: 'Live nodes in all (= items.length).' }) total: number;
  @ApiProperty({ type: [NodeViewDto], description: 'Every live node.' }) items: NodeViewDto[];
}
