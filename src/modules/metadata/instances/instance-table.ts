import { DataSource, EntityManager, EntityMetadata, In, Repository } from 'typeorm';
import { JobInstance } from '../entities/job-instance.entity.js';
import { insertIgnoreVerb, runStatement, type StatementResult } from '../repositories/raw-statement.js';
import { JobInstanceStatus as S } from '../state-machine/job-instance-status.js';

/** The statuses of an instance not over yet. */
export const UNFINISHED: readonly S[] = [S.PENDING, S.WAITING, S.DISPATCHED, S.RUNNING];

type ColumnMetadata = EntityMetadata['columns'][number];
const tables = new WeakMap<DataSource, InstanceTable>();

/**
 * What the job_instance query objects share, one per DataSource: the entity's repository, its columns, the quoted
 * list a whole-row SELECT reads (every column but the checkpoint text, read on demand), the hydration of a raw row,
 * raw statements and the multi-row INSERT IGNORE of new rows.
 */
export class InstanceTable {
  readonly repo: Repository<JobInstance>;
  /** Every column, in the entity's order: what an INSERT writes. */
  readonly columns: ColumnMetadata[];
  /** `a, b, …` quoted: what a whole-row SELECT reads. */
  readonly selected: string;
  private readonly readColumns: ColumnMetadata[];

  private constructor(private readonly ds: DataSource) {
    this.repo = ds.getRepository(JobInstance);
    this.columns = ds.getMetadata(JobInstance).columns;
    this.readColumns = this.columns.filter((c) => c.isSelect);
    this.selected = this.readColumns.map((c) => this.quote(c.databaseName)).join(', ');
  }

  /** The table of `ds` (made once). */
  static of(ds: DataSource): InstanceTable {
    let table = tables.get(ds);
    if (!table) tables.set(ds, (table = new InstanceTable(ds)));
    return table;
  }

  /** The column `name` quoted for the dialect. */
  quote(name: string): string {
    return this.ds.options.type === 'mysql' ? `\`${name}\`` : `"${name}"`;
  }

  /** The column `property`'s metadata. */
  column(property: keyof JobInstance): ColumnMetadata {
    return this.columns.find((c) => c.propertyName === property) as ColumnMetadata;
  }

  /** One raw statement (`?` placeholders) inside `em` or on a pooled connection. */
  run(em: EntityManager | undefined, sql: string, params: unknown[]): Promise<StatementResult> {
    return runStatement(this.ds, em, sql, params);
  }

  /** The rows a raw SELECT of {@link selected} read, as entities. */
  hydrate(records: unknown[] | undefined): JobInstance[] {
    return (records ?? []).map((raw) => {
      const from = raw as Record<string, unknown>;
      const row = new JobInstance() as unknown as Record<string, unknown>;
      for (const c of this.readColumns) {
        const v = from[c.databaseName];
        row[c.propertyName] = c.transformer && !Array.isArray(c.transformer) ? c.transformer.from(v) : v;
      }
      return row as unknown as JobInstance;
    });
  }

  /** INSERT IGNORE of new rows inside `em`, raw (the builder costs ~0.2 ms a row). @returns rows inserted. */
  async insertIgnore(em: EntityManager, rows: JobInstance[]): Promise<number> {
    if (rows.length === 0) return 0;
    const columns = this.columns;
    const names = columns.map((c) => this.quote(c.databaseName)).join(', ');
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    const chunk = Math.max(1, Math.floor(20_000 / columns.length));
    let inserted = 0;
    for (let i = 0; i < rows.length; i += chunk) {
      const part = rows.slice(i, i + chunk);
      const params: unknown[] = [];
      for (const row of part) {
        for (const c of columns) {
          const raw = (row as unknown as Record<string, unknown>)[c.propertyName];
          const v = c.transformer && !Array.isArray(c.transformer) ? c.transformer.to(raw) : raw;
          params.push(v === undefined ? null : typeof v === 'boolean' ? Number(v) : v);
        }
      }
      const values = part.map(() => tuple).join(', ');
      const sql = `${insertIgnoreVerb(this.ds)} INTO job_instance (${names}) VALUES ${values}`;
      inserted += Number((await this.run(em, sql, params)).affected ?? 0);
    }
    return inserted;
  }

  /** Which of `ids` exist (inside `em`, e.g. to learn which rows an INSERT IGNORE really wrote). */
  async existingIds(em: EntityManager, ids: string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await em
        .getRepository(JobInstance)
        .find({ select: { id: true }, where: { id: In(ids.slice(i, i + 1000)) } });
      for (const r of rows) out.add(r.id);
    }
    return out;
  }
}
