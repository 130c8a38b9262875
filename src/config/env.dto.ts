import { TracingEnvDto } from './env-tracing.dto.js';

/**
 * Every environment setting Tickwheel reads, validated once at boot (the only reader is loadConfig). The README's
 * settings table documents the same list, and what each setting means; keep them in step. The settings are
 * declared by group in the env-*.dto.ts files, each class extending the one before (class-validator and
 * class-transformer read inherited decorators), so the checks run group by group in this order: process,
 * cluster, tenancy, callbacks, long tasks, notifications, tracing.
 */
export class EnvDto extends TracingEnvDto {}
