-- The statements this job_instance query object issues, one block per call of test/utils/instance-sql-cases.ts;
-- a block that differs by dialect shows both. Written by the instance-sql tests with UPDATE_SQL_SNAPSHOTS=1
-- (SQLite: unit tier, MySQL: integration tier); they fail on any difference.

-- DispatchLedger.dispatchMany: rows taken meanwhile
-- [mysql]
UPDATE `job_instance`
  SET `status` = ?, `staged` = ?, `node_id` = ?, `dispatched_at` = ?, `updated_at` = ?
  WHERE `id` IN (?, ?) AND `status` = ? AND `due_at` <= ?;
-- params: ["DISPATCHED",null,"node-1",1800000000000,1800000000000,"00000000-0000-7000-8000-000000000030","00000000-0000-7000-8000-000000000031","PENDING",1800000000000]
SELECT `JobInstance`.`id` AS `JobInstance_id`
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`id` IN (?, ?)) AND (`JobInstance`.`status` = ?) AND (`JobInstance`.`node_id` = ?) AND (`JobInstance`.`dispatched_at` = ?));
-- params: ["00000000-0000-7000-8000-000000000030","00000000-0000-7000-8000-000000000031","DISPATCHED","node-1",1800000000000]
-- [sqlite]
UPDATE "job_instance"
  SET "status" = ?, "staged" = ?, "node_id" = ?, "dispatched_at" = 1800000000000, "updated_at" = 1800000000000
  WHERE "id" IN (?, ?) AND "status" = ? AND "due_at" <= 1800000000000;
-- params: ["DISPATCHED",null,"node-1","00000000-0000-7000-8000-000000000030","00000000-0000-7000-8000-000000000031","PENDING"]
SELECT "JobInstance"."id" AS "JobInstance_id"
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."id" IN (?, ?)) AND ("JobInstance"."status" = ?) AND ("JobInstance"."node_id" = ?) AND ("JobInstance"."dispatched_at" = 1800000000000));
-- params: ["00000000-0000-7000-8000-000000000030","00000000-0000-7000-8000-000000000031","DISPATCHED","node-1"]

-- DispatchLedger.stageMany: rows taken meanwhile
UPDATE job_instance
  SET status = ?, staged = COALESCE(staged, ?), node_id = ?, dispatched_at = due_at, updated_at = ?
  WHERE id IN (?, ?) AND status = ? AND due_at > ?;
-- params: ["DISPATCHED","DELAYED","node-1",1800000000000,"00000000-0000-7000-8000-000000000030","00000000-0000-7000-8000-000000000031","PENDING",1800000000000]
SELECT id
  FROM job_instance
  WHERE id IN (?, ?) AND status = ? AND node_id = ? AND staged IS NOT NULL AND updated_at = ?;
-- params: ["00000000-0000-7000-8000-000000000030","00000000-0000-7000-8000-000000000031","DISPATCHED","node-1",1800000000000]

-- DispatchLedger.clearStaged
UPDATE job_instance
  SET staged = NULL
  WHERE id IN (?, ?) AND staged IS NOT NULL;
-- params: ["00000000-0000-7000-8000-000000000030","00000000-0000-7000-8000-000000000031"]
