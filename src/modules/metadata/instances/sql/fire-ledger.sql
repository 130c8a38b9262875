-- The statements this job_instance query object issues, one block per call of test/utils/instance-sql-cases.ts;
-- a block that differs by dialect shows both. Written by the instance-sql tests with UPDATE_SQL_SNAPSHOTS=1
-- (SQLite: unit tier, MySQL: integration tier); they fail on any difference.

-- FireLedger.insertIgnore: a fire staged ahead of its time
-- [mysql]
INSERT IGNORE INTO job_instance (`id`, `namespace`, `app_id`, `request_id`, `request_hash`, `job_id`, `job_code`, `handler`, `fire_time`, `shard_index`, `shard_total`, `trigger_source`, `status`, `staged`, `attempt`, `max_attempts`, `retry_backoff_ms`, `retry_backoff_kind`, `timeout_ms`, `max_concurrency`, `routing_strategy`, `routing_key`, `node_id`, `lease_until`, `fencing_token`, `params`, `result`, `error`, `trace_id`, `callback_url`, `task_name`, `checkpoint`, `checkpoint_attempt`, `checkpoint_token`, `checkpoint_at`, `progress`, `progress_note`, `progress_at`, `heartbeat_timeout_ms`, `due_at`, `created_at`, `updated_at`, `dispatched_at`, `started_at`, `finished_at`)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- params: ["00000000-0000-7000-8000-000000000010","tw-sql-snapshot","app-1","req-10",null,"00000000-0000-7000-8000-00000000000j",null,"h",1800000005000,0,1,"SCHEDULE","PENDING","FIRE",1,1,1000,"FIXED",60000,0,"ROUND_ROBIN",null,null,null,0,"{}",null,null,"trace-10",null,null,null,null,null,null,null,null,null,0,1800000005000,1799999997500,1799999997500,null,null,null]
-- [sqlite]
INSERT OR IGNORE INTO job_instance ("id", "namespace", "app_id", "request_id", "request_hash", "job_id", "job_code", "handler", "fire_time", "shard_index", "shard_total", "trigger_source", "status", "staged", "attempt", "max_attempts", "retry_backoff_ms", "retry_backoff_kind", "timeout_ms", "max_concurrency", "routing_strategy", "routing_key", "node_id", "lease_until", "fencing_token", "params", "result", "error", "trace_id", "callback_url", "task_name", "checkpoint", "checkpoint_attempt", "checkpoint_token", "checkpoint_at", "progress", "progress_note", "progress_at", "heartbeat_timeout_ms", "due_at", "created_at", "updated_at", "dispatched_at", "started_at", "finished_at")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- params: ["00000000-0000-7000-8000-000000000010","tw-sql-snapshot","app-1","req-10",null,"00000000-0000-7000-8000-00000000000j",null,"h",1800000005000,0,1,"SCHEDULE","PENDING","FIRE",1,1,1000,"FIXED",60000,0,"ROUND_ROBIN",null,null,null,0,"{}",null,null,"trace-10",null,null,null,null,null,null,null,null,null,0,1800000005000,1799999997500,1799999997500,null,null,null]

-- FireLedger.existingIds
-- [mysql]
SELECT `JobInstance`.`id` AS `JobInstance_id`
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`id` IN (?, ?)));
-- params: ["00000000-0000-7000-8000-000000000010","00000000-0000-7000-8000-000000000011"]
-- [sqlite]
SELECT "JobInstance"."id" AS "JobInstance_id"
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."id" IN (?, ?)));
-- params: ["00000000-0000-7000-8000-000000000010","00000000-0000-7000-8000-000000000011"]

-- FireLedger.unfinishedOfJobs
-- [mysql]
SELECT `JobInstance`.`id` AS `JobInstance_id`, `JobInstance`.`namespace` AS `JobInstance_namespace`, `JobInstance`.`app_id` AS `JobInstance_app_id`, `JobInstance`.`request_id` AS `JobInstance_request_id`, `JobInstance`.`request_hash` AS `JobInstance_request_hash`, `JobInstance`.`job_id` AS `JobInstance_job_id`, `JobInstance`.`job_code` AS `JobInstance_job_code`, `JobInstance`.`handler` AS `JobInstance_handler`, `JobInstance`.`fire_time` AS `JobInstance_fire_time`, `JobInstance`.`shard_index` AS `JobInstance_shard_index`, `JobInstance`.`shard_total` AS `JobInstance_shard_total`, `JobInstance`.`trigger_source` AS `JobInstance_trigger_source`, `JobInstance`.`status` AS `JobInstance_status`, `JobInstance`.`staged` AS `JobInstance_staged`, `JobInstance`.`attempt` AS `JobInstance_attempt`, `JobInstance`.`max_attempts` AS `JobInstance_max_attempts`, `JobInstance`.`retry_backoff_ms` AS `JobInstance_retry_backoff_ms`, `JobInstance`.`retry_backoff_kind` AS `JobInstance_retry_backoff_kind`, `JobInstance`.`timeout_ms` AS `JobInstance_timeout_ms`, `JobInstance`.`max_concurrency` AS `JobInstance_max_concurrency`, `JobInstance`.`routing_strategy` AS `JobInstance_routing_strategy`, `JobInstance`.`routing_key` AS `JobInstance_routing_key`, `JobInstance`.`node_id` AS `JobInstance_node_id`, `JobInstance`.`lease_until` AS `JobInstance_lease_until`, `JobInstance`.`fencing_token` AS `JobInstance_fencing_token`, `JobInstance`.`params` AS `JobInstance_params`, `JobInstance`.`result` AS `JobInstance_result`, `JobInstance`.`error` AS `JobInstance_error`, `JobInstance`.`trace_id` AS `JobInstance_trace_id`, `JobInstance`.`callback_url` AS `JobInstance_callback_url`, `JobInstance`.`task_name` AS `JobInstance_task_name`, `JobInstance`.`checkpoint_attempt` AS `JobInstance_checkpoint_attempt`, `JobInstance`.`checkpoint_token` AS `JobInstance_checkpoint_token`, `JobInstance`.`checkpoint_at` AS `JobInstance_checkpoint_at`, `JobInstance`.`progress` AS `JobInstance_progress`, `JobInstance`.`progress_note` AS `JobInstance_progress_note`, `JobInstance`.`progress_at` AS `JobInstance_progress_at`, `JobInstance`.`heartbeat_timeout_ms` AS `JobInstance_heartbeat_timeout_ms`, `JobInstance`.`due_at` AS `JobInstance_due_at`, `JobInstance`.`created_at` AS `JobInstance_created_at`, `JobInstance`.`updated_at` AS `JobInstance_updated_at`, `JobInstance`.`dispatched_at` AS `JobInstance_dispatched_at`, `JobInstance`.`started_at` AS `JobInstance_started_at`, `JobInstance`.`finished_at` AS `JobInstance_finished_at`
  FROM `job_instance` `JobInstance`
  WHERE ((((`JobInstance`.`job_id` IN (?)) AND (`JobInstance`.`status` IN (?, ?, ?, ?)))) OR (((`JobInstance`.`job_id` IN (?)) AND (`JobInstance`.`status` = ?) AND (`JobInstance`.`lease_until` > ?))))
  ORDER BY `JobInstance`.`fire_time` ASC;
-- params: ["00000000-0000-7000-8000-00000000000j","PENDING","WAITING","DISPATCHED","RUNNING","00000000-0000-7000-8000-00000000000j","CANCELLED",1800000000000]
-- [sqlite]
SELECT "JobInstance"."id" AS "JobInstance_id", "JobInstance"."namespace" AS "JobInstance_namespace", "JobInstance"."app_id" AS "JobInstance_app_id", "JobInstance"."request_id" AS "JobInstance_request_id", "JobInstance"."request_hash" AS "JobInstance_request_hash", "JobInstance"."job_id" AS "JobInstance_job_id", "JobInstance"."job_code" AS "JobInstance_job_code", "JobInstance"."handler" AS "JobInstance_handler", "JobInstance"."fire_time" AS "JobInstance_fire_time", "JobInstance"."shard_index" AS "JobInstance_shard_index", "JobInstance"."shard_total" AS "JobInstance_shard_total", "JobInstance"."trigger_source" AS "JobInstance_trigger_source", "JobInstance"."status" AS "JobInstance_status", "JobInstance"."staged" AS "JobInstance_staged", "JobInstance"."attempt" AS "JobInstance_attempt", "JobInstance"."max_attempts" AS "JobInstance_max_attempts", "JobInstance"."retry_backoff_ms" AS "JobInstance_retry_backoff_ms", "JobInstance"."retry_backoff_kind" AS "JobInstance_retry_backoff_kind", "JobInstance"."timeout_ms" AS "JobInstance_timeout_ms", "JobInstance"."max_concurrency" AS "JobInstance_max_concurrency", "JobInstance"."routing_strategy" AS "JobInstance_routing_strategy", "JobInstance"."routing_key" AS "JobInstance_routing_key", "JobInstance"."node_id" AS "JobInstance_node_id", "JobInstance"."lease_until" AS "JobInstance_lease_until", "JobInstance"."fencing_token" AS "JobInstance_fencing_token", "JobInstance"."params" AS "JobInstance_params", "JobInstance"."result" AS "JobInstance_result", "JobInstance"."error" AS "JobInstance_error", "JobInstance"."trace_id" AS "JobInstance_trace_id", "JobInstance"."callback_url" AS "JobInstance_callback_url", "JobInstance"."task_name" AS "JobInstance_task_name", "JobInstance"."checkpoint_attempt" AS "JobInstance_checkpoint_attempt", "JobInstance"."checkpoint_token" AS "JobInstance_checkpoint_token", "JobInstance"."checkpoint_at" AS "JobInstance_checkpoint_at", "JobInstance"."progress" AS "JobInstance_progress", "JobInstance"."progress_note" AS "JobInstance_progress_note", "JobInstance"."progress_at" AS "JobInstance_progress_at", "JobInstance"."heartbeat_timeout_ms" AS "JobInstance_heartbeat_timeout_ms", "JobInstance"."due_at" AS "JobInstance_due_at", "JobInstance"."created_at" AS "JobInstance_created_at", "JobInstance"."updated_at" AS "JobInstance_updated_at", "JobInstance"."dispatched_at" AS "JobInstance_dispatched_at", "JobInstance"."started_at" AS "JobInstance_started_at", "JobInstance"."finished_at" AS "JobInstance_finished_at"
  FROM "job_instance" "JobInstance"
  WHERE (((("JobInstance"."job_id" IN (?)) AND ("JobInstance"."status" IN (?, ?, ?, ?)))) OR ((("JobInstance"."job_id" IN (?)) AND ("JobInstance"."status" = ?) AND ("JobInstance"."lease_until" > 1800000000000))))
  ORDER BY "JobInstance"."fire_time" ASC;
-- params: ["00000000-0000-7000-8000-00000000000j","PENDING","WAITING","DISPATCHED","RUNNING","00000000-0000-7000-8000-00000000000j","CANCELLED"]

-- FireLedger.latestScheduledFire
SELECT MAX(fire_time) AS t
  FROM job_instance
  WHERE job_id = ? AND (trigger_source = ? OR (trigger_source = ? AND status <> ?));
-- params: ["00000000-0000-7000-8000-00000000000j","SCHEDULE","MISFIRE","CANCELLED"]

-- FireLedger.deleteStagedFires
SELECT MIN(fire_time) AS t
  FROM job_instance
  WHERE job_id = ? AND status IN (?, ?) AND staged = ? AND fire_time > ?;
-- params: ["00000000-0000-7000-8000-00000000000j","PENDING","DISPATCHED","FIRE",1800000000000]
DELETE
  FROM job_instance
  WHERE job_id = ? AND status IN (?, ?) AND staged = ? AND fire_time > ?;
-- params: ["00000000-0000-7000-8000-00000000000j","PENDING","DISPATCHED","FIRE",1800000000000]

-- FireLedger.filledFires
SELECT fire_time AS t, COUNT(*) AS n
  FROM job_instance
  WHERE job_id = ? AND shard_index < ? AND fire_time IN (?, ?)
  GROUP BY fire_time;
-- params: ["00000000-0000-7000-8000-00000000000j",2,1800000000000,1800000005000]
