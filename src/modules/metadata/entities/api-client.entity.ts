import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber, jsonText } from './columns.js';
import { Scope } from './enums.js';

/**
 * An application allowed to call the API (docs/tenancy.md); secret AES-256-GCM encrypted at rest, `app_id`
 * compared exactly. A null limit takes the cluster's default setting.
 */
@Entity('api_client')
export class ApiClient {
  @PrimaryColumn({ name: 'app_id', type: 'varchar', length: 64 }) appId: string;
  @Column({ name: 'secret_enc', type: 'varchar', length: 512 }) secretEnc: string;
  @Column({ type: 'boolean' }) enabled: boolean;
  @Column({ type: 'text', transformer: jsonText }) scopes: Scope[];
  /** Requests per second (token refill rate); null = the RATE_LIMIT_PER_SECOND default, 0 = unlimited. */
  @Column({ name: 'rate_limit', type: 'int', nullable: true }) rateLimit: number | null;
  /** Token bucket size (the burst); null = the RATE_LIMIT_BURST default. */
  @Column({ name: 'rate_burst', type: 'int', nullable: true }) rateBurst: number | null;
  /** Most job definitions the app may own; null = the MAX_JOBS_PER_APP default. */
  @Column({ name: 'max_jobs', type: 'int', nullable: true }) maxJobs: number | null;
  /** Most unfinished API tasks the app may have; null = the MAX_UNFINISHED_TASKS_PER_APP default. */
  @Column({ name: 'max_unfinished_tasks', type: 'int', nullable: true }) maxUnfinishedTasks: number | null;
  /** The app's own egress allow-list (narrows the cluster policy, never widens it); null = no narrowing. */
  @Column({ name: 'egress_allow', type: 'text', nullable: true, transformer: jsonText }) egressAllow: string[] | null;
  @Column({ name: 'callback_hosts', type: 'text', nullable: true, transformer: jsonText })
  callbackHosts: string[] | null;
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', nullable: true, transformer: bigintNumber }) updatedAt: number | null;
}
