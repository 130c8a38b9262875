-- The statements this job_instance query object issues, one block per call of test/utils/instance-sql-cases.ts;
-- a block that differs by dialect shows both. Written by the instance-sql tests with UPDATE_SQL_SNAPSHOTS=1
-- (SQLite: unit tier, MySQL: integration tier); they fail on any difference.

-- NotificationInstances.byIds
SELECT id, namespace, app_id, request_id, job_id, job_code, handler, fire_time, status, attempt, error, started_at, finished_at, trace_id, traceparent
  FROM job_instance
  WHERE id IN (?, ?);
-- params: ["00000000-0000-7000-8000-000000000001","00000000-0000-7000-8000-000000000003"]

-- NotificationInstances.outcomesUpTo
SELECT id, namespace, app_id, request_id, job_id, job_code, handler, fire_time, status, attempt, error, started_at, finished_at, trace_id, traceparent
  FROM job_instance
  WHERE job_id = ? AND fire_time <= ? AND status IN (?, ?, ?)
  ORDER BY fire_time DESC, shard_index DESC
  LIMIT ?;
-- params: ["00000000-0000-7000-8000-00000000000j",1800000000000,"SUCCESS","FAILED","TIMEOUT",4]

-- NotificationInstances.jobRunsIn
SELECT id, namespace, app_id, request_id, job_id, job_code, handler, fire_time, status, attempt, error, started_at, finished_at, trace_id, traceparent
  FROM job_instance
  WHERE status = ? AND fire_time >= ? AND fire_time <= ? AND namespace = ? AND job_id IS NOT NULL
  ORDER BY fire_time
  LIMIT ?;
-- params: ["PENDING",1799999999000,1800000000000,"tw-sql-snapshot",100]
