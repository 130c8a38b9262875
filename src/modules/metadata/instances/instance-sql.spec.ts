import { readFileSync } from 'node:fs';
import {
  compareSnapshots,
  generateSnapshots,
  snapshotFile,
  statusWriteViolations,
} from '../../../../test/utils/instance-sql.js';
import { methodsWithoutCase, SQL_CASES } from '../../../../test/utils/instance-sql-cases.js';
import { canTransition } from '../state-machine/transitions.js';
import { isStagingWrite } from './staged.js';

/**
 * The SQL of the job_instance query objects (SQLite; MySQL in test/integration/instance-sql.int-spec.ts): what each
 * method issues is committed under instances/sql/ and reviewed as text; UPDATE_SQL_SNAPSHOTS=1 rewrites the files.
 */
describe('job_instance query objects: SQL', () => {
  it('should issue exactly the committed SQLite statements, method by method', async () => {
    const generated = await generateSnapshots();
    expect(compareSnapshots('sqlite', generated)).toEqual([]);
  });

  it('should call every method of every query object in the snapshots', () => {
    expect(methodsWithoutCase()).toEqual([]);
  });

  it('should change status only by a declared transition that clears or (staging) sets the staged mark', () => {
    for (const { type } of SQL_CASES) {
      const text = readFileSync(snapshotFile(type.name), 'utf8');
      expect(statusWriteViolations(text, { canTransition, isStagingWrite })).toEqual([]);
    }
  });

  it('should flag a status write outside the transition table, or one that leaves the staged mark', () => {
    const block = (sql: string, params: unknown[]) => `-- X.y\n${sql};\n-- params: ${JSON.stringify(params)}\n`;
    const text = [
      block('UPDATE job_instance\n  SET status = ?, staged = ?\n  WHERE id = ? AND status = ?', [
        'RUNNING',
        null,
        'i',
        'PENDING',
      ]),
      block('UPDATE job_instance\n  SET status = ?\n  WHERE id = ? AND status IN (?, ?)', [
        'CANCELLED',
        'i',
        'PENDING',
        'WAITING',
      ]),
      block('UPDATE job_instance\n  SET status = ?, staged = ?\n  WHERE id = ?', ['PENDING', null, 'i']),
      block('UPDATE job_instance\n  SET staged = ?\n  WHERE id = ?', ['FIRE', 'i']),
      block('UPDATE job_instance\n  SET status = ?, staged = ?\n  WHERE id = ? AND status = ?', [
        'DISPATCHED',
        'FIRE',
        'i',
        'PENDING',
      ]),
    ].join('\n');
    expect(statusWriteViolations(text, { canTransition, isStagingWrite })).toEqual([
      'X.y: PENDING -> RUNNING is not a transition',
      'X.y: writes status without writing the staged mark',
      'X.y: writes status PENDING without a from-status in its WHERE',
      'X.y: sets the staged mark (FIRE) without a status write',
      'X.y: sets staged FIRE',
    ]);
  });
});
