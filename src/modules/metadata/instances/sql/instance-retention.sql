-- The statements this job_instance query object issues, one block per call of test/utils/instance-sql-cases.ts;
-- a block that differs by dialect shows both. Written by the instance-sql tests with UPDATE_SQL_SNAPSHOTS=1
-- (SQLite: unit tier, MySQL: integration tier); they fail on any difference.

-- InstanceRetention.finishedBefore
SELECT i.id
  FROM job_instance i
  WHERE i.finished_at < ? AND i.namespace = ? AND i.status IN (?, ?, ?, ?) AND NOT EXISTS (SELECT 1
  FROM callback_delivery d
  WHERE d.instance_id = i.id AND d.state IN (?, ?))
  ORDER BY i.finished_at
  LIMIT ?;
-- params: [1800000000000,"tw-sql-snapshot","SUCCESS","FAILED","TIMEOUT","CANCELLED","PENDING","RETRYING",100]

-- InstanceRetention.removeFinished
DELETE
  FROM job_instance
  WHERE id IN (?, ?) AND status IN (?, ?, ?, ?) AND NOT EXISTS (SELECT 1
  FROM callback_delivery d
  WHERE d.instance_id = job_instance.id);
-- params: ["00000000-0000-7000-8000-000000000001","00000000-0000-7000-8000-000000000003","SUCCESS","FAILED","TIMEOUT","CANCELLED"]
