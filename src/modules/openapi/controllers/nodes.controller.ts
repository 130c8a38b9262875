import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Caller } from '../../jobs/index.js';
import { Scope } from '../../metadata/index.js';
import { CurrentCaller } from '../auth/caller.js';
import { RequireScope } from '../auth/scope.guard.js';
import { Signed } from '../auth/signed.decorator.js';
import { NodeListQueryDto, NodePageDto } from '../dto/node.dto.js';
import { NodeViewsService } from '../services/node-views.service.js';

/** Read-only cluster state (docs/api.md `/api/nodes`). */
@ApiTags('nodes')
@Signed()
@Controller('api/nodes')
export class NodesController {
  constructor(private readonly views: NodeViewsService) {}

  @Get()
  @RequireScope(Scope.NODES_READ)
  @ApiOperation({
    summary: 'Live executor and app worker nodes',
    description:
      'Handlers, capacity, running tasks, queue depth and last heartbeat of live nodes, as `{total, items}` (0.2.0; ' +
      'a bare array before), all in one page. `appId` is the app owning an app worker (null: a trusted executor). ' +
      "An admin sees every node. Any other caller sees its own app's workers, and only the trusted executors that " +
      'advertise a handler of its jobs, of its unfinished work or the `handler` it asks for, each with those ' +
      'handlers only, `host` null and its own load (docs/api.md `/api/nodes`).',
  })
  @ApiOkResponse({ type: NodePageDto })
  list(@CurrentCaller() caller: Caller, @Query() q: NodeListQueryDto): Promise<NodePageDto> {
    return this.views.list(caller, q.handler);
  }
}
