-- The statements this job_instance query object issues, one block per call of test/utils/instance-sql-cases.ts;
-- a block that differs by dialect shows both. Written by the instance-sql tests with UPDATE_SQL_SNAPSHOTS=1
-- (SQLite: unit tier, MySQL: integration tier); they fail on any difference.

-- StagedInstances.findStaged
SELECT id, app_id, node_id, due_at, priority, staged
  FROM job_instance
  WHERE namespace = ? AND status IN (?, ?) AND staged IS NOT NULL AND (due_at > ? OR (due_at = ? AND id > ?))
  ORDER BY due_at, id
  LIMIT ?;
-- params: ["tw-sql-snapshot","PENDING","DISPATCHED",1799999995000,1799999995000,"",100]

-- StagedInstances.findUnreleasedFires
SELECT id, job_id, status, node_id, fire_time
  FROM job_instance
  WHERE namespace = ? AND status IN (?, ?) AND staged = ? AND due_at < ?
  ORDER BY due_at
  LIMIT ?;
-- params: ["tw-sql-snapshot","PENDING","DISPATCHED","FIRE",1799999995000,100]

-- StagedInstances.deleteUnreleasedFires
-- [mysql]
SELECT id, job_id, fire_time
  FROM job_instance
  WHERE id IN (?, ?) AND status IN (?, ?) AND staged = ? FOR UPDATE;
-- params: ["00000000-0000-7000-8000-000000000020","00000000-0000-7000-8000-000000000021","PENDING","DISPATCHED","FIRE"]
DELETE
  FROM job_instance
  WHERE id IN (?);
-- params: ["00000000-0000-7000-8000-000000000020"]
-- [sqlite]
SELECT id, job_id, fire_time
  FROM job_instance
  WHERE id IN (?, ?) AND status IN (?, ?) AND staged = ?;
-- params: ["00000000-0000-7000-8000-000000000020","00000000-0000-7000-8000-000000000021","PENDING","DISPATCHED","FIRE"]
DELETE
  FROM job_instance
  WHERE id IN (?);
-- params: ["00000000-0000-7000-8000-000000000020"]
