import { readFileSync } from 'node:fs';
import { type Bound, type BoundName, BOUNDS } from '../../src/common/index.js';

/**
 * The bounds the docs state are the table's (src/common/bounds.ts): README "Limits" lists every entry, and each
 * row of it, of docs/api.md "Limits" and of docs/api.md "Lists" that names a bounded field states its numbers.
 */

/** The body rows of the first markdown table under `heading` in `file`, as cells. */
function tableUnder(file: string, heading: string): string[][] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`${file} has no heading '${heading}'`);
  const first = lines.findIndex((l, i) => i > start && l.startsWith('|'));
  const end = lines.findIndex((l, i) => i > first && !l.startsWith('|'));
  return lines.slice(first + 2, end).map((l) =>
    l
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim()),
  );
}

/** The whole numbers a cell states (`65,535` is 65535), leaving out code spans such as `[A-Za-z0-9_.-]`. */
function numbersIn(cell: string): number[] {
  const prose = cell.replace(/`[^`]*`/g, '');
  return (prose.match(/\d{1,3}(?:,\d{3})+|\d+/g) ?? []).map((n) => Number(n.replace(/,/g, '')));
}

function defaultsIn(cell: string): number[] {
  return [...cell.matchAll(/default (\d{1,3}(?:,\d{3})+|\d+)/g)].map((m) => Number(m[1].replace(/,/g, '')));
}

const NAMES = Object.keys(BOUNDS) as BoundName[];
/** How the docs' tables name each bound in a row's first cell: its field name in backticks, but for these. */
const OTHER_LABELS: Partial<Record<BoundName, RegExp>> = {
  tasks: /`tasks`|^batch$/,
  shardTotal: /`shardTotal`|^shards$/,
  shardParamsItems: /^`shardParams`$/,
  callbackUrl: /`callbackUrl`|^callback URL$/,
  callbackHost: /redeliver by host/,
  content: /`content`|^crontab import$/,
  offset: /`limit`, `offset`/,
  limit: /`limit`, `offset`/,
  logLimit: /handler logs/,
  logAfter: /handler logs/,
  logAttempt: /handler logs/,
  previewCount: /`count` of a schedule preview/,
  ruleName: /notification rule's `name`/,
  failureCount: /rule's .*`count`/,
  egressEntry: /`egressAllow`/,
  crontabUser: /`mapUsers`/,
  ...Object.fromEntries(
    (
      [
        'workerHandlers',
        'workerCapacity',
        'workerHost',
        'workerActive',
        'fraction',
        'epochMs',
        'claimMax',
        'claimWaitMs',
        'finishItems',
        'leaseAttempts',
        'fencingToken',
        'instanceId',
        'progressNote',
        'logLines',
        'logMessage',
        'workerError',
      ] as const
    ).map((b) => [b, /^app worker routes/]),
  ),
};
const LABELS = Object.fromEntries(NAMES.map((b) => [b, OTHER_LABELS[b] ?? new RegExp(`\`${b}\``)])) as Record<
  BoundName,
  RegExp
>;

/** What a cell stating `bound` lacks: its minimum or maximum. */
function missing(bound: Bound, cell: string): string[] {
  const numbers = numbersIn(cell);
  return [
    ...(bound.min !== undefined && !numbers.includes(bound.min) ? [`min ${bound.min}`] : []),
    ...(!numbers.includes(bound.max) ? [`max ${bound.max}`] : []),
  ];
}

/**
 * Each row of `rows` naming bounds whose numbers its cell does not state, or that states a default none of them
 * has (a cell may give the defaults of some of the bounds it names, not of others).
 */
function disagreements(rows: string[][], cell: (row: string[]) => string): string[] {
  return rows.flatMap((row) => {
    const named = NAMES.filter((b) => LABELS[b].test(row[0]));
    if (named.length === 0) return [];
    const lacks = named.flatMap((b) => missing(BOUNDS[b], cell(row)).map((m) => `${b} ${m}`));
    const defaults = named.map((b) => (BOUNDS[b] as Bound).default);
    const foreign = defaultsIn(cell(row)).filter((d) => !defaults.includes(d));
    const wrong = [...lacks, ...foreign.map((d) => `default ${d} of none of ${named.join(', ')}`)];
    return wrong.length > 0 ? [`${row[0]} | ${cell(row)}: ${wrong.join('; ')}`] : [];
  });
}

describe('the bounds the docs state', () => {
  const readme = tableUnder('README.md', '### Limits');

  it('should list every entry of BOUNDS in the README "Limits" table', () => {
    expect(NAMES.filter((b) => !readme.some((row) => LABELS[b].test(row[0])))).toEqual([]);
  });

  it('should state in each README "Limits" row the numbers of the bounds it names', () => {
    expect(disagreements(readme, (row) => row[1])).toEqual([]);
  });

  it('should state in each docs/api.md "Limits" row the numbers of the bounds it names', () => {
    const rows = tableUnder('docs/api.md', '## Limits');
    expect(rows.filter((row) => NAMES.some((b) => LABELS[b].test(row[0]))).length).toBeGreaterThan(4);
    expect(disagreements(rows, (row) => row[1])).toEqual([]);
  });

  it('should page each docs/api.md "Lists" route by the offset and limit of the table', () => {
    const stated = tableUnder('docs/api.md', '## Lists').flatMap((row) =>
      [...row[1].matchAll(/`(offset|limit)` \(([^)]*)\)/g)].map((m) => [m[1] as BoundName, m[2]] as const),
    );
    expect(stated.length).toBeGreaterThan(4);
    const wrong = stated.filter(
      ([b, text]) =>
        missing(BOUNDS[b], text).length > 0 || defaultsIn(text).some((d) => d !== (BOUNDS[b] as Bound).default),
    );
    expect(wrong).toEqual([]);
  });

  it('should notice a bound or a default that differs from the table', () => {
    const row = readme.find((r) => LABELS.timeoutMs.test(r[0])) as string[];
    for (const [from, to] of [
      ['86,400,000', '86,400,001'],
      ['default 60,000', 'default 30,000'],
    ])
      expect(disagreements([[row[0], row[1].replace(from, to)]], (r) => r[1])).toHaveLength(1);
  });
});
