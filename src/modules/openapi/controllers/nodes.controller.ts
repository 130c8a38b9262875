import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NODE_QUEUES, type NodeQueuePort } from '../../coordination/index.js';
import { mayTake, NodeRegistryService } from '../../dispatch/index.js';
import { type Caller, hasScope } from '../../jobs/index.js';
import { Scope } from '../../metadata/index.js';
import { CurrentCaller } from '../auth/caller.js';
import { RequireScope } from '../auth/scope.guard.js';
import { Signed } from '../auth/signed.decorator.js';
import { NodePageDto } from '../dto/node.dto.js';

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
    summary: 'Live executor and app worker nodes',
    description:
      'Handlers, capacity, running tasks, queue depth and last heartbeat of every live node, as `{total, items}` ' +
      '(0.2.0; a bare array before), all in one page. `appId` is the app owning an app worker (null: a trusted ' +
      "executor). An admin sees every node; any other caller the trusted executors and its own app's workers " +
      '(docs/workers.md).',
  })
  @ApiOkResponse({ type: NodePageDto })
  async list(@CurrentCaller() caller: Caller): Promise<NodePageDto> {
    const admin = hasScope(caller, Scope.ADMIN);
    const nodes = (await this.registry.liveNodes()).filter((n) => admin || mayTake(n, caller.appId));
    const items = await Promise.all(
      nodes.map(async (n) => ({
        nodeId: n.nodeId,
        host: n.info.host,
        appId: n.info.appId ?? null,
        handlers: n.info.handlers,
        capacity: n.info.capacity,
        active: n.info.active,
        queue: await this.coordination.queueDepth(n.nodeId),
        lastBeat: new Date(n.lastBeat).toISOString(),
        startedAt: new Date(n.info.startedAt).toISOString(),
      })),
    );
    return { total: items.length, items };
  }
}
