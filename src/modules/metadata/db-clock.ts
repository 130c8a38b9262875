import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CLOCK, type Clock, repeatEvery } from '../../common/index.js';
import { MetricsService } from '../observability/index.js';

/** How often a process reads the database's clock, ms. */
export const CLOCK_CHECK_INTERVAL_MS = 30_000;
/** An offset past this (ms, either way) is logged: the alert TickwheelClockSkew uses the same 500 ms. */
export const CLOCK_SKEW_WARN_MS = 500;

/** The database's time in µs since the epoch: UTC arithmetic, no session or DST zone in between. */
const DB_NOW_US = "SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01', UTC_TIMESTAMP(6)) AS us";

/**
 * This process's clock against the database's (docs/observability.md "Clock offset"): every
 * {@link CLOCK_CHECK_INTERVAL_MS} it reads `UTC_TIMESTAMP(6)` and estimates offset = dbTime − (t0 + t1) / 2, t0
 * and t1 its own clock before and after the round trip (ms; positive: this clock is behind the database's). Exported as
 * `tickwheel_clock_offset_seconds`. On SQLite (standalone) the database runs in this process, on this host's
 * clock: the offset is 0 by construction and nothing is read. A failed read keeps the last estimate.
 */
@Injectable()
export class DbClock implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DbClock.name);
  /** The last estimate, ms; null before the first read. */
  offsetMs: number | null = null;
  private stop: () => void = () => undefined;
  private skewed = false;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(MetricsService) private readonly metrics?: Pick<MetricsService, 'clockOffsetSeconds'>,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.metrics) return;
    void this.measure();
    this.stop = repeatEvery(this.clock, CLOCK_CHECK_INTERVAL_MS, () => void this.measure());
  }

  onApplicationShutdown(): void {
    this.stop();
  }

  /** Reads the database's clock once; returns the offset (ms), or null when the read failed (logged). Never throws. */
  async measure(): Promise<number | null> {
    let offset = 0;
    if (this.ds.options.type === 'mysql') {
      try {
        const t0 = this.clock.now();
        const [row] = (await this.ds.query(DB_NOW_US)) as Array<{ us: string | number }>;
        const t1 = this.clock.now();
        offset = Math.round(Number(row.us) / 1000 - (t0 + t1) / 2);
      } catch (err) {
        this.logger.warn(`reading the database's clock failed, the last offset stays: ${(err as Error).message}`);
        return null;
      }
    }
    this.offsetMs = offset;
    this.metrics?.clockOffsetSeconds.set(offset / 1000);
    this.note(offset);
    return offset;
  }

  /** One line when the offset goes past CLOCK_SKEW_WARN_MS, one when it is back within. */
  private note(offset: number): void {
    const skewed = Math.abs(offset) > CLOCK_SKEW_WARN_MS;
    if (skewed === this.skewed) return;
    this.skewed = skewed;
    if (skewed)
      this.logger.warn(
        `this node's clock is ${offset > 0 ? 'behind' : 'ahead of'} the database's by ${Math.abs(offset)} ms ` +
          `(over ${CLOCK_SKEW_WARN_MS} ms): fires, leases and heartbeats use each node's own clock; run NTP`,
      );
    else this.logger.log(`this node's clock is within ${CLOCK_SKEW_WARN_MS} ms of the database's again`);
  }
}
