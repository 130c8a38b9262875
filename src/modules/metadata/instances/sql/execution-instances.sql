-- The statements this job_instance query object issues, one block per call of test/utils/instance-sql-cases.ts;
-- a block that differs by dialect shows both. Written by the instance-sql tests with UPDATE_SQL_SNAPSHOTS=1
-- (SQLite: unit tier, MySQL: integration tier); they fail on any difference.

-- ExecutionInstances.claimDispatched: a row taken meanwhile
UPDATE job_instance
  SET status = ?, staged = ?, fencing_token = fencing_token + 1, lease_until = ?, started_at = ?, updated_at = ?
  WHERE id IN (?) AND status = ? AND node_id = ? AND CASE id WHEN ? THEN (attempt = ? AND fencing_token = ?) END;
-- params: ["RUNNING",null,1800000060000,1800000000000,1800000000000,"00000000-0000-7000-8000-000000000090","DISPATCHED","node-1","00000000-0000-7000-8000-000000000090",1,0]
SELECT id
  FROM job_instance
  WHERE id IN (?) AND status = ? AND node_id = ? AND started_at = ? AND CASE id WHEN ? THEN fencing_token = ? END;
-- params: ["00000000-0000-7000-8000-000000000090","RUNNING","node-1",1800000000000,"00000000-0000-7000-8000-000000000090",1]

-- ExecutionInstances.succeedMany: a row taken meanwhile
UPDATE job_instance
  SET status = ?, staged = ?, result = CASE id WHEN ? THEN ? END, error = NULL, lease_until = NULL, finished_at = ?, updated_at = ?
  WHERE id IN (?) AND status = ? AND CASE id WHEN ? THEN (attempt = ? AND fencing_token = ?) END;
-- params: ["SUCCESS",null,"00000000-0000-7000-8000-000000000090","{\"ok\":true}",1800000000000,1800000000000,"00000000-0000-7000-8000-000000000090","RUNNING","00000000-0000-7000-8000-000000000090",1,1]
SELECT id
  FROM job_instance
  WHERE id IN (?) AND status = ? AND finished_at = ? AND CASE id WHEN ? THEN (attempt = ? AND fencing_token = ?) END;
-- params: ["00000000-0000-7000-8000-000000000090","SUCCESS",1800000000000,"00000000-0000-7000-8000-000000000090",1,1]

-- ExecutionInstances.renewLease
-- [mysql]
UPDATE `job_instance`
  SET `lease_until` = ?, `updated_at` = ?
  WHERE `id` = ? AND `status` = ? AND `fencing_token` = ?;
-- params: [1800000060000,1800000000000,"00000000-0000-7000-8000-000000000090","RUNNING",1]
-- [sqlite]
UPDATE "job_instance"
  SET "lease_until" = 1800000060000, "updated_at" = 1800000000000
  WHERE "id" = ? AND "status" = ? AND "fencing_token" = 1;
-- params: ["00000000-0000-7000-8000-000000000090","RUNNING"]

-- ExecutionInstances.writeCheckpoint
UPDATE job_instance
  SET checkpoint = ?, checkpoint_attempt = ?, checkpoint_token = ?, checkpoint_at = ?, lease_until = ?, updated_at = ?
  WHERE id = ? AND fencing_token = ? AND status = ?;
-- params: ["{}",1,1,1800000000000,1800000000000,1800000000000,"00000000-0000-7000-8000-000000000090",1,"RUNNING"]

-- ExecutionInstances.readCheckpoints
SELECT id, checkpoint, checkpoint_attempt, checkpoint_token, checkpoint_at
  FROM job_instance
  WHERE id IN (?) AND checkpoint_at IS NOT NULL;
-- params: ["00000000-0000-7000-8000-000000000090"]

-- ExecutionInstances.writeProgress
UPDATE job_instance
  SET progress = CASE id WHEN ? THEN ? END, progress_note = CASE id WHEN ? THEN ? END, progress_at = CASE id WHEN ? THEN ? END
  WHERE id IN (?) AND status = ? AND CASE id WHEN ? THEN fencing_token = ? END;
-- params: ["00000000-0000-7000-8000-000000000090",0.5,"00000000-0000-7000-8000-000000000090",null,"00000000-0000-7000-8000-000000000090",1800000000000,"00000000-0000-7000-8000-000000000090","RUNNING","00000000-0000-7000-8000-000000000090",1]

-- ExecutionInstances.notRunningAnyMore
-- [mysql]
SELECT `JobInstance`.`id` AS `JobInstance_id`, `JobInstance`.`status` AS `JobInstance_status`, `JobInstance`.`fencing_token` AS `JobInstance_fencing_token`
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`id` IN (?)));
-- params: ["00000000-0000-7000-8000-000000000090"]
-- [sqlite]
SELECT "JobInstance"."id" AS "JobInstance_id", "JobInstance"."status" AS "JobInstance_status", "JobInstance"."fencing_token" AS "JobInstance_fencing_token"
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."id" IN (?)));
-- params: ["00000000-0000-7000-8000-000000000090"]
