import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import { type Bound, BOUNDS } from '../../../common/index.js';
import { ApiClient, Scope } from '../../metadata/index.js';
import { APP_ID_MESSAGE, APP_ID_PATTERN } from '../auth/api-client.service.js';
import { iso } from '../views/iso.js';
import { ListQueryDto } from './list.dto.js';
import { BoundedInt, NameString } from './validators.js';

const { egressAllow, egressEntry, appId } = BOUNDS;
/**
 * Characters of an egress allow-list entry: a host (`*.example.com`), an IP (v4, or v6 in brackets with a
 * port), a CIDR, with an optional `:port`. Only the characters are checked here; the egress policy parses them.
 */
const EGRESS_ENTRY = /^[A-Za-z0-9.*:[\]/_-]+$/;
const SCOPES = Object.values(Scope);

/** A client's own limit within `bound`; null (or omitted) = the setting's default. */
function ClientLimit(bound: Bound & { min: number }, description: string): PropertyDecorator {
  return BoundedInt(bound, { api: { type: Number, nullable: true, description } });
}

/** The limits a client may have of its own (null = the setting's default). */
export class ClientLimitsDto {
  @ClientLimit(
    BOUNDS.rateLimit,
    'Requests per second (token refill rate); null = the RATE_LIMIT_PER_SECOND default, 0 = unlimited.',
  )
  rateLimit?: number | null;

  @ClientLimit(BOUNDS.rateBurst, 'Token bucket size (burst); null = the RATE_LIMIT_BURST default.')
  rateBurst?: number | null;

  @ClientLimit(
    BOUNDS.maxJobs,
    'Most job definitions the app may own in a namespace; null = MAX_JOBS_PER_APP, 0 = no limit.',
  )
  maxJobs?: number | null;

  @ClientLimit(
    BOUNDS.maxUnfinishedTasks,
    'Most unfinished tasks and fires the app may have; null = MAX_UNFINISHED_TASKS_PER_APP, 0 = no limit.',
  )
  maxUnfinishedTasks?: number | null;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: egressAllow.max,
    description:
      `The app's own egress allow-list (hosts, IPs, CIDRs, optional :port; at most ${egressAllow.max} entries of ` +
      `${egressEntry.max} characters): narrows the cluster's egress policy, never widens it. null = no ` +
      `narrowing.`,
    example: ['api.example.com:443', '10.0.0.0/8'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(egressAllow.max)
  @IsString({ each: true })
  @MaxLength(egressEntry.max, { each: true })
  @Matches(EGRESS_ENTRY, {
    each: true,
    message: 'egressAllow entries are hosts, IPs or CIDRs with an optional :port ([A-Za-z0-9.*:[]/_-])',
  })
  egressAllow?: string[] | null;
}

/** POST /api/clients body. */
export class CreateClientDto extends ClientLimitsDto {
  @NameString(appId, APP_ID_PATTERN, APP_ID_MESSAGE, {
    required: true,
    api: {
      description: `The new app id: ${appId.min}-${appId.max} of [A-Za-z0-9_.-], compared exactly.`,
      example: 'billing',
    },
  })
  appId: string;

  @ApiPropertyOptional({
    enum: SCOPES,
    isArray: true,
    description:
      'What it may do (default tasks:read, tasks:write, jobs:read, jobs:write, nodes:read). admin implies all but ' +
      'shell.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SCOPES.length)
  @ArrayUnique()
  @IsIn(SCOPES, { each: true, message: `scopes must be of ${SCOPES.join(', ')}` })
  scopes?: Scope[];
}

/** PATCH /api/clients/{appId} body: any subset; a limit set to null goes back to the setting's default. */
export class UpdateClientDto extends ClientLimitsDto {
  @ApiPropertyOptional({
    enum: SCOPES,
    isArray: true,
    description: 'The whole new list of scopes (replaces the old one).',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SCOPES.length)
  @ArrayUnique()
  @IsIn(SCOPES, { each: true, message: `scopes must be of ${SCOPES.join(', ')}` })
  scopes?: Scope[];

  @ApiPropertyOptional({
    description: 'false: every request of the app is refused (401), on other API pods within the 30-s client cache.',
  })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

/** GET /api/clients query. */
export class ClientListQueryDto extends ListQueryDto {}

/** A client as admins see it: never its secret. */
export class ClientViewDto {
  @ApiProperty({ description: `The app id: ${appId.min}-${appId.max} of [A-Za-z0-9_.-], compared exactly.` })
  appId: string;
  @ApiProperty({ description: 'false: every request of the app is refused (401).' }) enabled: boolean;
  @ApiProperty({ enum: SCOPES, isArray: true, description: 'What the app may do (README "Tenancy and scopes").' })
  scopes: Scope[];
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Requests per second (token refill rate); null = the RATE_LIMIT_PER_SECOND default, 0 = unlimited.',
  })
  rateLimit: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Token bucket size (burst), requests; null = the RATE_LIMIT_BURST default.',
  })
  rateBurst: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Most job definitions the app may own in a namespace; null = MAX_JOBS_PER_APP, 0 = no limit.',
  })
  maxJobs: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Most unfinished tasks and fires the app may have; null = MAX_UNFINISHED_TASKS_PER_APP, 0 = no limit.',
  })
  maxUnfinishedTasks: number | null;
  @ApiProperty({
    type: [String],
    nullable: true,
    description:
      "The app's own egress allow-list (hosts, IPs, CIDRs): narrows the cluster's egress policy; null = no " +
      'narrowing.',
  })
  egressAllow: string[] | null;
  @ApiProperty({ description: 'When the client was created, UTC ISO-8601 (ms).' }) createdAt: string;
  @ApiProperty({ type: String, nullable: true, description: 'When it last changed, UTC ISO-8601 (ms); null: never.' })
  updatedAt: string | null;

  static of(c: ApiClient): ClientViewDto {
    return {
      appId: c.appId,
      enabled: c.enabled,
      scopes: c.scopes ?? [],
      rateLimit: c.rateLimit,
      rateBurst: c.rateBurst,
      maxJobs: c.maxJobs,
      maxUnfinishedTasks: c.maxUnfinishedTasks,
      egressAllow: c.egressAllow,
      createdAt: iso(c.createdAt) as string,
      updatedAt: iso(c.updatedAt),
    };
  }
}

/** The answer to a create or a secret rotation: the one time the secret is shown. */
export class ClientCredentialsDto extends ClientViewDto {
  @ApiProperty({ description: 'The secret (64 hex characters), shown only in this answer: store it.' }) secret: string;
}

/** A page of clients. */
export class ClientPageDto {
  @ApiProperty({ description: 'How many clients there are in all (every page).' }) total: number;
  @ApiProperty({ type: [ClientViewDto], description: 'This page, by app id; at most `limit`.' }) items: ClientViewDto[];
}
