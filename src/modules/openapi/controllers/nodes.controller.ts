import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NODE_QUEUES, type NodeQueuePort } from '../../coordination/index.js';
import { NodeRegistryService } from '../../dispatch/index.js';
import { Scope } from '../../metadata/index.js';
import { RequireScope } from '../auth/scope.guard.js';
import { Signed } from '../auth/signed.decorator.js';
import { NodeViewDto } from '../dto/node.dto.js';

/** Read-only cluster state (docs/api.md `/api/nodes`). */
@ApiTags('nodes')
@Signed()
@Controller('api/nodes')
export class NodesController {
  constructor(
    private readonly registry: NodeRegistryService,
    @Inject(NODE_QUEUES) private readonly coordination: NodeQueuePort,
  ) {}

  @Get()
  @RequireScope(Scope.NODES_READ)
  @ApiOperation({
    summary: 'Live executor nodes',
    description: 'Handlers, capacity, running tasks, queue depth and last heartbeat of every live node.',
  })
  @ApiOkResponse({ type: [NodeViewDto] })
  async list(): Promise<NodeViewDto[]> {
    const nodes = await this.registry.liveNodes();
    return Promise.all(
      nodes.map(async (n) => ({
        nodeId: n.nodeId,
        host: n.info.host,
        handlers: n.info.handlers,
        capacity: n.info.capacity,
        active: n.info.active,
        queue: await this.coordination.queueDepth(n.nodeId),
        lastBeat: new Date(n.lastBeat).toISOString(),
        startedAt: new Date(n.info.startedAt).toISOString(),
      })),
    );
  }
}
