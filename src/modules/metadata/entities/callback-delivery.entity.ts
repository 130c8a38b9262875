import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintNumber } from './columns.js';

/** A delivery's state (docs/callbacks.md): PENDING and RETRYING are due work, the other two are final. */
export const CallbackState = {
  PENDING: 'PENDING',
  RETRYING: 'RETRYING',
  DELIVERED: 'DELIVERED',
  CALLBACK_FAILED: 'CALLBACK_FAILED',
} as const;
export type CallbackState = (typeof CallbackState)[keyof typeof CallbackState];

/**
 * The outbox row of one finished instance's callback (docs/callbacks.md), written in the transaction of the
 * final state; `id` is the deliveryId the receiver sees on every try. Times epoch ms UTC.
 */
@Entity('callback_delivery')
@Index('uq_callback_delivery_instance', ['instanceId'], { unique: true })
@Index('ix_callback_delivery_ns_due', ['namespace', 'state', 'nextAttemptAt'])
@Index('ix_callback_delivery_claim', ['claim'])
@Index('ix_callback_delivery_app_host', ['appId', 'host', 'namespace', 'state', 'updatedAt'])
export class CallbackDelivery {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id: string;
  /** The instance's namespace: a deployment's senders send only its own deliveries. */
  @Column({ type: 'varchar', length: 64, default: '' }) namespace: string;
  @Column({ name: 'instance_id', type: 'varchar', length: 36 }) instanceId: string;
  @Column({ name: 'app_id', type: 'varchar', length: 64 }) appId: string;
  @Column({ type: 'varchar', length: 2048 }) url: string;
  /** `host:port` of `url`, lower case: the unit of per-host concurrency and of "host down". */
  @Column({ type: 'varchar', length: 300 }) host: string;
  @Column({ type: 'varchar', length: 16 }) state: CallbackState;
  /** Tries made so far (a probe of a down host is not counted). */
  @Column({ type: 'int', default: 0 }) attempts: number;
  @Column({ name: 'next_attempt_at', type: 'bigint', transformer: bigintNumber }) nextAttemptAt: number;
  /** The sender claim that holds the row (a fresh UUID per claim), null when free; guards every write of it. */
  @Column({ type: 'varchar', length: 36, nullable: true }) claim: string | null;
  @Column({ name: 'lease_until', type: 'bigint', nullable: true, transformer: bigintNumber })
  leaseUntil: number | null;
  @Column({ name: 'last_status_code', type: 'int', nullable: true }) lastStatusCode: number | null;
  @Column({ name: 'last_error', type: 'varchar', length: 1024, nullable: true }) lastError: string | null;
  /** When the instance reached its final state (the start of the delivery latency). */
  @Column({ name: 'final_at', type: 'bigint', transformer: bigintNumber }) finalAt: number;
  @Column({ name: 'delivered_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  deliveredAt: number | null;
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintNumber }) updatedAt: number;
}

/**
 * What every sender knows of one app's receiving `host:port` (docs/callbacks.md "Hosts marked down"): one app's
 * failing receiver never marks the host down for another app.
 */
@Entity('callback_host')
@Index('ix_callback_host_down', ['namespace', 'downSince'])
export class CallbackHost {
  /** Each namespace (deployment) keeps its own view of the hosts it sends to. */
  @PrimaryColumn({ type: 'varchar', length: 64 }) namespace: string;
  @PrimaryColumn({ name: 'app_id', type: 'varchar', length: 64 }) appId: string;
  @PrimaryColumn({ type: 'varchar', length: 300 }) host: string;
  @Column({ name: 'consecutive_failures', type: 'int', default: 0 }) consecutiveFailures: number;
  /** Set while down: the app's deliveries to the host end HOST_DOWN, but the one kept as the probe. */
  @Column({ name: 'down_since', type: 'bigint', nullable: true, transformer: bigintNumber })
  downSince: number | null;
  @Column({ name: 'next_probe_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  nextProbeAt: number | null;
  /** Failed probes since the host went down (the probe backoff's index). */
  @Column({ type: 'int', default: 0 }) probes: number;
  /** The delivery kept waiting to be sent as the probe (the newest one), null when none. */
  @Column({ name: 'probe_id', type: 'varchar', length: 36, nullable: true }) probeId: string | null;
  @Column({ name: 'last_error', type: 'varchar', length: 1024, nullable: true }) lastError: string | null;
  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintNumber }) updatedAt: number;
}

/** An app's registered callback URL: its default (`handler` = '') or one per handler name. */
@Entity('callback_registration')
export class CallbackRegistration {
  @PrimaryColumn({ name: 'app_id', type: 'varchar', length: 64 }) appId: string;
  /** The handler name, or '' for the app's default. */
  @PrimaryColumn({ type: 'varchar', length: 128 }) handler: string;
  @Column({ type: 'varchar', length: 2048 }) url: string;
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintNumber }) updatedAt: number;
}
