import { compareSnapshots, generateSnapshots } from '../utils/instance-sql.js';
import { MYSQL_URL } from '../utils/test-node.js';

/**
 * The MySQL dialect of the job_instance query objects' SQL (SQLite: instances/instance-sql.spec.ts), run on MariaDB
 * and compared with the MySQL part of src/modules/metadata/instances/sql/*.sql; UPDATE_SQL_SNAPSHOTS=1 rewrites it.
 */
describe('job_instance query objects: SQL (MariaDB)', () => {
  it('should issue exactly the committed MySQL statements, method by method', async () => {
    const generated = await generateSnapshots(MYSQL_URL);
    expect(compareSnapshots('mysql', generated)).toEqual([]);
  }, 60_000);
});
