-- The statements this job_instance query object issues, one block per call of test/utils/instance-sql-cases.ts;
-- a block that differs by dialect shows both. Written by the instance-sql tests with UPDATE_SQL_SNAPSHOTS=1
-- (SQLite: unit tier, MySQL: integration tier); they fail on any difference.

-- InstanceTransitions.transition: DISPATCHED → PENDING guarded by attempt, token and node
-- [mysql]
UPDATE `job_instance`
  SET `status` = ?, `staged` = ?, `updated_at` = ?
  WHERE `id` = ? AND `status` = ? AND `attempt` = ? AND `fencing_token` = ? AND `node_id` = ?;
-- params: ["PENDING",null,1800000000000,"00000000-0000-7000-8000-000000000001","DISPATCHED",1,0,"node-1"]
-- [sqlite]
UPDATE "job_instance"
  SET "status" = ?, "staged" = ?, "updated_at" = 1800000000000
  WHERE "id" = ? AND "status" = ? AND "attempt" = 1 AND "fencing_token" = 0 AND "node_id" = ?;
-- params: ["PENDING",null,"00000000-0000-7000-8000-000000000001","DISPATCHED","node-1"]

-- InstanceTransitions.transition: the hand-back of a staged fire its node never got: it stays staged
-- [mysql]
UPDATE `job_instance`
  SET `status` = ?, `staged` = ?, `updated_at` = ?
  WHERE `id` = ? AND `status` = ? AND `attempt` = ? AND `node_id` = ?;
-- params: ["PENDING","FIRE",1800000000000,"00000000-0000-7000-8000-000000000001","DISPATCHED",1,"node-1"]
-- [sqlite]
UPDATE "job_instance"
  SET "status" = ?, "staged" = ?, "updated_at" = 1800000000000
  WHERE "id" = ? AND "status" = ? AND "attempt" = 1 AND "node_id" = ?;
-- params: ["PENDING","FIRE","00000000-0000-7000-8000-000000000001","DISPATCHED","node-1"]
