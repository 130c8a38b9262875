import { ApiProperty } from '@nestjs/swagger';

/** A node's queue in the coordination store. */
export class NodeQueueDto {
  @ApiProperty({ description: 'Tasks dispatched to it and not yet claimed.' }) ready: number;
  @ApiProperty({ description: 'Tasks it claimed and holds (running or about to).' }) processing: number;
}

/** One live executor node (GET /api/nodes). */
export class NodeViewDto {
  @ApiProperty({ description: 'The node id (host-pid-sequence).' }) nodeId: string;
  @ApiProperty({ description: 'Host name the node runs on.' }) host: string;
  @ApiProperty({ type: [String], description: 'Handlers it advertises (it is given only tasks of these).' })
  handlers: string[];
  @ApiProperty({ description: 'Tasks it runs at once at most.' }) capacity: number;
  @ApiProperty({ description: 'Tasks it runs now (as of its last heartbeat).' }) active: number;
  @ApiProperty({ type: NodeQueueDto, description: 'Its queue depth now.' }) queue: NodeQueueDto;
  @ApiProperty({ description: 'Its last heartbeat, ISO-8601 UTC.' }) lastBeat: string;
  @ApiProperty({ description: 'When it started, ISO-8601 UTC.' }) startedAt: string;
}

/** Every live node, in one page (a cluster has few; no paging). */
export class NodePageDto {
  @ApiProperty({ description: 'Live nodes in all (= items.length).' }) total: number;
  @ApiProperty({ type: [NodeViewDto] }) items: NodeViewDto[];
}
