import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { type LiveNode, NODE_QUEUES, type NodeQueuePort } from '../../coordination/index.js';
import { NodeRegistryService } from '../../dispatch/index.js';
import { type Caller, hasScope } from '../../jobs/index.js';
import {
  InstanceReads,
  JobDefinitionRepository,
  JobInstanceStatus as S,
  Scope,
  type UnfinishedGroup,
} from '../../metadata/index.js';
import type { NodePageDto, NodeViewDto } from '../dto/node.dto.js';

/** The fields of a node's view that depend on who asks. */
type PerCaller = 'active' | 'queue' | 'clockOffsetMs';

/**
 * GET /api/nodes (docs/api.md `/api/nodes`, SECURITY.md "Tenancy and scopes"). An admin sees every live node as it
 * advertises itself. Any other app sees its own app workers in full, and of the trusted executors only those that
 * advertise a handler it uses (one of its jobs', one of its unfinished instances', or the `handler` it asks for;
 * `shell` only with the `shell` scope), each with those handlers alone, no host name, and its own load there (its
 * RUNNING and dispatched instances): nothing of what other apps run, where, or how much.
 */
@Injectable()
export class NodeViewsService {
  constructor(
    private readonly registry: NodeRegistryService,
    @Inject(NODE_QUEUES) private readonly queues: NodeQueuePort,
    private readonly instances: InstanceReads,
    private readonly jobs: JobDefinitionRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The nodes `caller` may see, narrowed to those advertising `handler` when given; sorted by node id. */
  async list(caller: Caller, handler?: string): Promise<NodePageDto> {
    const live = (await this.registry.liveNodes()).filter((n) => !handler || n.info.handlers.includes(handler));
    const items = hasScope(caller, Scope.ADMIN)
      ? await Promise.all(live.map((n) => this.full(n)))
      : await this.tenantView(caller, live, handler);
    return { total: items.length, items };
  }

  private async tenantView(caller: Caller, live: LiveNode[], handler?: string): Promise<NodeViewDto[]> {
    const ns = this.config.namespace;
    const [groups, jobHandlers] = await Promise.all([
      this.instances.unfinishedOfAppByNode(ns, caller.appId),
      this.jobs.handlersOf(ns, caller.appId),
    ]);
    const used = new Set([...jobHandlers, ...groups.map((g) => g.handler), ...(handler ? [handler] : [])]);
    if (!hasScope(caller, Scope.SHELL)) used.delete('shell'); // a stranger never learns shell is on
    const items: NodeViewDto[] = [];
    for (const n of live) {
      if (n.info.appId === caller.appId) items.push(await this.full(n)); // its own worker: all of it is its own
      if (n.info.appId !== undefined && n.info.appId !== null) continue; // another app's worker: never
      const handlers = n.info.handlers.filter((h) => used.has(h));
      if (handlers.length > 0) items.push(this.executorForApp(n, handlers, groups));
    }
    return items;
  }

  /** A node as it advertises itself, with its whole queue. */
  private async full(n: LiveNode): Promise<NodeViewDto> {
    const queue = await this.queues.queueDepth(n.nodeId);
    const clockOffsetMs = n.info.clockOffsetMs ?? null;
    return { ...this.base(n, n.info.handlers, n.info.host), active: n.info.active, queue, clockOffsetMs };
  }

  /** A trusted executor as one app sees it: its handlers among `handlers`, its own instances there. */
  private executorForApp(n: LiveNode, handlers: string[], groups: UnfinishedGroup[]): NodeViewDto {
    const count = (status: S) =>
      groups.filter((g) => g.nodeId === n.nodeId && g.status === status).reduce((sum, g) => sum + g.count, 0);
    const queue = { ready: count(S.DISPATCHED), processing: 0 };
    return { ...this.base(n, handlers, null), active: count(S.RUNNING), queue, clockOffsetMs: null };
  }

  private base(n: LiveNode, handlers: string[], host: string | null): Omit<NodeViewDto, PerCaller> {
    return {
      nodeId: n.nodeId,
      host,
      appId: n.info.appId ?? null,
      handlers,
      capacity: n.info.capacity,
      lastBeat: new Date(n.lastBeat).toISOString(),
      startedAt: new Date(n.info.startedAt).toISOString(),
    };
  }
}
