import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, ForbiddenError, NotFoundError, ValidationError } from '../../../common/index.js';
import { parseEgressList } from '../../egress/index.js';
import { ApiClient, ApiClientRepository, Scope, UnitOfWork } from '../../metadata/index.js';
import { ApiClientService, checkScopes } from '../auth/api-client.service.js';
import { ClientCredentialsDto, ClientViewDto, CreateClientDto, UpdateClientDto } from '../dto/client.dto.js';
import { AuditAction, AuditService, type Caller, ClientJobs, clientSnapshot } from '../../jobs/index.js';

/** The limit fields a PATCH may set (null: back to the setting's default). */
const LIMIT_FIELDS = ['rateLimit', 'rateBurst', 'maxJobs', 'maxUnfinishedTasks', 'egressAllow'] as const;

/**
 * Client management for admins (`/api/clients`, README "Tenancy and scopes"): create (the secret shown
 * once), list, read, change scopes, limits and `enabled`, rotate the secret (shown once). Each change
 * commits with its audit row (never a secret) in one transaction, then every process's client caches forget the
 * app ({@link ApiClientService.changed}). Disabling pauses the app's jobs, enabling resumes those (ClientJobs).
 */
@Injectable()
export class ClientsService {
  constructor(
    private readonly clients: ApiClientRepository,
    private readonly service: ApiClientService,
    private readonly audit: AuditService,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly clientJobs: ClientJobs,
  ) {}

  /** @throws ValidationError, ConflictError (the app exists). */
  async create(caller: Caller, dto: CreateClientDto): Promise<ClientCredentialsDto> {
    const { appId, scopes, ...limits } = dto;
    checkEgressAllow(limits.egressAllow);
    const { secret } = await this.service.create(appId, { scopes, limits, actor: caller.appId });
    return { ...(await this.get(appId)), secret };
  }

  async list(offset: number, limit: number): Promise<{ total: number; items: ClientViewDto[] }> {
    const [rows, total] = await this.clients.list(offset, limit);
    return { total, items: rows.map((c) => ClientViewDto.of(c)) };
  }

  /** @throws NotFoundError */
  async get(appId: string): Promise<ClientViewDto> {
    const row = await this.clients.findByAppId(appId);
    if (!row) throw new NotFoundError('client', appId);
    return ClientViewDto.of(row);
  }

  /**
   * Changes scopes, limits (null = the default again) or `enabled` of client `appId`. An admin may not
   * disable itself or drop its own `admin` scope (it would lock itself out; another admin can, and the
   * create-app CLI makes one), nor add a scope to its own client (a 403 naming it: `admin` would otherwise
   * imply `shell` after one PATCH).
   * @throws NotFoundError; ValidationError naming the field.
   */
  async update(caller: Caller, appId: string, dto: UpdateClientDto): Promise<ClientViewDto> {
    const patch = this.patchOf(caller, appId, dto);
    let jobs: string[] = [];
    const after = await this.uow.run(async (em) => {
      const before = await this.clients.lockForUpdate(em, appId);
      if (!before) throw new NotFoundError('client', appId);
      const next = Object.assign(new ApiClient(), before, patch);
      await this.clients.update(em, appId, patch);
      if (before.enabled !== next.enabled)
        jobs = next.enabled
          ? await this.clientJobs.resumeAll(em, caller.appId, appId)
          : await this.clientJobs.pauseAll(em, caller.appId, appId);
      const action = before.enabled && !next.enabled ? AuditAction.CLIENT_DISABLE : AuditAction.CLIENT_UPDATE;
      await this.audit.record(
        em,
        caller.appId,
        action,
        { type: 'client', id: appId },
        clientSnapshot(before),
        clientSnapshot(next),
      );
      return next;
    });
    await this.service.changed(appId);
    await this.clientJobs.signal(jobs);
    return ClientViewDto.of(after);
  }

  /** A new secret for `appId`, shown once. @throws NotFoundError */
  async rotateSecret(caller: Caller, appId: string): Promise<ClientCredentialsDto> {
    const { secret } = await this.service.rotateSecret(caller.appId, appId);
    return { ...(await this.get(appId)), secret };
  }

  /** The columns `dto` changes. @throws ValidationError for a null scope list or `enabled`, or a self lock-out. */
  private patchOf(caller: Caller, appId: string, dto: UpdateClientDto): Partial<ApiClient> {
    const patch: Partial<ApiClient> = { updatedAt: this.clock.now() };
    if (dto.scopes === null)
      throw new ValidationError('scopes', 'scopes cannot be null; send the whole list ([] for none)');
    if (dto.enabled === null) throw new ValidationError('enabled', 'enabled must be true or false');
    if (dto.scopes !== undefined) patch.scopes = checkScopes(dto.scopes);
    if (dto.enabled !== undefined) patch.enabled = dto.enabled;
    checkEgressAllow(dto.egressAllow);
    for (const f of LIMIT_FIELDS) if (dto[f] !== undefined) (patch as Record<string, unknown>)[f] = dto[f];
    if (appId === caller.appId && (patch.enabled === false || (patch.scopes && !patch.scopes.includes(Scope.ADMIN)))) {
      throw new ValidationError(
        patch.enabled === false ? 'enabled' : 'scopes',
        'an admin cannot disable itself or drop its own admin scope: another admin can (make one with npm run ' +
          'create-app -- <appId> --admin)',
      );
    }
    // admin does not imply shell: an admin that could grant itself a scope would hold every scope there is.
    const gained = appId === caller.appId && patch.scopes ? patch.scopes.filter((s) => !caller.scopes.has(s)) : [];
    if (gained.length > 0) {
      throw new ForbiddenError(
        `this request needs the scope ${gained[0]}: an admin cannot add a scope it lacks to its own client ` +
          `(${gained.join(', ')}): another admin can (make one with npm run create-app -- <appId> --admin)`,
        gained[0],
      );
    }
    return patch;
  }
}

/**
 * An app's egress allow-list must parse as the cluster's EGRESS_ALLOW does (README "Egress policy"), so an
 * entry the executors could not read is a 400 here, not a refused call later.
 * @throws ValidationError naming `egressAllow` and the entry.
 */
function checkEgressAllow(list: readonly string[] | null | undefined): void {
  if (list) parseEgressList(list, 'egressAllow');
}
