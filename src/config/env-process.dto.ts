import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { IntSetting, toBool } from './env-setting.js';

/** `host:port[,host:port…]`: a name or IPv4 (or [IPv6]) and a port, spaces around commas allowed. */
const HOST_PORT = String.raw`([A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}`;
const HOST_PORT_LIST = new RegExp(String.raw`^\s*${HOST_PORT}(\s*,\s*${HOST_PORT})*\s*$`);

/**
 * Where the process listens and keeps its data, the shape it runs in (cluster URLs, roles, namespace, secret key),
 * its name, what its shell handler and outbound calls may do, and how much it logs.
 */
export class ProcessEnvDto {
  @IntSetting(0, 65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  @IntSetting(0, 65535)
  METRICS_PORT?: number;

  @IsOptional()
  @IsString()
  METRICS_HOST?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[\x21-\x7e]{16,256}$/, { message: 'METRICS_TOKEN must be 16-256 printable ASCII characters, no space' })
  METRICS_TOKEN?: string;

  @IsOptional()
  @IsString()
  @Matches(/^mysql:\/\//, { message: 'DB_URL must be a mysql:// URL (e.g. mysql://root@127.0.0.1:3306/test)' })
  DB_URL?: string;

  @IsOptional()
  @IsString()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @IsOptional()
  @IsString()
  @Matches(HOST_PORT_LIST, { message: 'REDIS_SENTINELS must be a comma list of host:port (e.g. s1:26379,s2:26379)' })
  REDIS_SENTINELS?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]{1,64}$/, { message: 'REDIS_SENTINEL_NAME must be 1-64 of [A-Za-z0-9_.-]' })
  REDIS_SENTINEL_NAME?: string;

  @IsOptional()
  @IsString()
  REDIS_SENTINEL_PASSWORD?: string;

  @IsOptional()
  @IsString()
  @Matches(HOST_PORT_LIST, { message: 'REDIS_CLUSTER_NODES must be a comma list of host:port (e.g. r1:6379,r2:6379)' })
  REDIS_CLUSTER_NODES?: string;

  @IsOptional()
  @IsString()
  REDIS_PASSWORD?: string;

  @IsOptional()
  @IsString()
  DATA_DIR?: string;

  @IsOptional()
  @IsString()
  ROLES?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]{1,32}$/, { message: 'TICKWHEEL_NAMESPACE must be 1-32 of [A-Za-z0-9_.-]' })
  TICKWHEEL_NAMESPACE?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'TICKWHEEL_SECRET_KEY must be 64 hex characters (32 bytes)' })
  TICKWHEEL_SECRET_KEY?: string;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  TICKWHEEL_ALLOW_SHELL?: boolean;

  @IsOptional()
  @IsString()
  TICKWHEEL_SHELL_UID_RANGE?: string;

  @IntSetting(0, 4_294_967_294)
  TICKWHEEL_SHELL_UID?: number;

  @IntSetting(0, 4_294_967_294)
  TICKWHEEL_SHELL_GID?: number;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  TICKWHEEL_SHELL_UNISOLATED?: boolean;

  @IsOptional()
  @IsString()
  TICKWHEEL_SHELL_ENV_PASS?: string;

  @IsOptional()
  @IsString()
  NODE_NAME?: string;

  @IsOptional()
  @IsString()
  EGRESS_ALLOW?: string;

  @IsOptional()
  @IsString()
  EGRESS_DENY?: string;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;
}
