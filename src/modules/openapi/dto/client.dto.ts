import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { ApiClient, Scope } from '../../metadata/index.js';
import { APP_ID_PATTERN } from '../auth/api-client.service.js';
import { iso } from '../views/iso.js';

/** Most entries of a client's egress allow-list, and the longest entry. */
export const MAX_EGRESS_ENTRIES = 64;
export const MAX_EGRESS_ENTRY_LENGTH = 255;
/**
 * Characters of an egress allow-list entry: a host (`*.example.com`), an IP (v4, or v6 in brackets with a
 * port), a CIDR, with an optional `:port`. Only the characters are checked here; the egress policy parses them.
 */
const EGRESS_ENTRY = /^[A-Za-z0-9.*:[\]/_-]+$/;
const SCOPES = Object.values(Scope);
/** Most clients one page of GET /api/clients lists, and the furthest offset. */
export const MAX_CLIENT_PAGE = 500;
export const MAX_CLIENT_OFFSET = 100_000;

/** The limits a client may have of its own (null = the setting's default). */
export class ClientLimitsDto {
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: 1_000_000,
    description: 'Requests per second (token refill rate); null = the RATE_LIMIT_PER_SECOND default, 0 = unlimited.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  rateLimit?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: 1_000_000,
    description: 'Token bucket size (burst); null = the RATE_LIMIT_BURST default.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  rateBurst?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: 10_000_000,
    description: 'Most job definitions the app may own in a namespace; null = MAX_JOBS_PER_APP, 0 = no limit.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000_000)
  maxJobs?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: 100_000_000,
    description: 'Most unfinished tasks and fires the app may have; null = MAX_UNFINISHED_TASKS_PER_APP, 0 = no limit.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100_000_000)
  maxUnfinishedTasks?: number | null;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: MAX_EGRESS_ENTRIES,
    description:
      `The app's own egress allow-list (hosts, IPs, CIDRs, optional :port; at most ${MAX_EGRESS_ENTRIES} entries of ` +
      `${MAX_EGRESS_ENTRY_LENGTH} characters): narrows the cluster's egress policy, never widens it. null = no ` +
      `narrowing.`,
    example: ['api.example.com:443', '10.0.0.0/8'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_EGRESS_ENTRIES)
  @IsString({ each: true })
  @MaxLength(MAX_EGRESS_ENTRY_LENGTH, { each: true })
  @Matches(EGRESS_ENTRY, {
    each: true,
    message: 'egressAllow entries are hosts, IPs or CIDRs with an optional :port ([A-Za-z0-9.*:[]/_-])',
  })
  egressAllow?: string[] | null;
}

/** POST /api/clients body. */
export class CreateClientDto extends ClientLimitsDto {
  @ApiProperty({ description: 'The new app id: 3-64 of [A-Za-z0-9_.-], compared exactly.', example: 'billing' })
  @IsString()
  @Matches(APP_ID_PATTERN, { message: 'appId must be 3-64 of [A-Za-z0-9_.-]' })
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
export class ClientListQueryDto {
  @ApiPropertyOptional({ default: 0, maximum: MAX_CLIENT_OFFSET })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_CLIENT_OFFSET)
  offset?: number;
  @ApiPropertyOptional({ default: 50, maximum: MAX_CLIENT_PAGE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_CLIENT_PAGE)
  limit?: number;
}

/** A client as admins see it: never its secret. */
export class ClientViewDto {
  @ApiProperty({ description: 'The app id: 3-64 of [A-Za-z0-9_.-], compared exactly.' }) appId: string;
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
