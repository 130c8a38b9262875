-- The statements this job_instance query object issues, one block per call of test/utils/instance-sql-cases.ts;
-- a block that differs by dialect shows both. Written by the instance-sql tests with UPDATE_SQL_SNAPSHOTS=1
-- (SQLite: unit tier, MySQL: integration tier); they fail on any difference.

-- AdmissionInstances.countOfJob
-- [mysql]
SELECT COUNT(1) AS `cnt`
  FROM `job_instance` `JobInstance`
  WHERE ((((`JobInstance`.`job_id` = ?) AND (`JobInstance`.`status` IN (?, ?)))) OR (((`JobInstance`.`job_id` = ?) AND (`JobInstance`.`status` = ?) AND (`JobInstance`.`due_at` <= ?))) OR (((`JobInstance`.`job_id` = ?) AND (`JobInstance`.`status` = ?) AND (`JobInstance`.`lease_until` > ?))));
-- params: ["00000000-0000-7000-8000-00000000000j","DISPATCHED","RUNNING","00000000-0000-7000-8000-00000000000j","PENDING",1800000000000,"00000000-0000-7000-8000-00000000000j","CANCELLED",1800000000000]
-- [sqlite]
SELECT COUNT(1) AS "cnt"
  FROM "job_instance" "JobInstance"
  WHERE (((("JobInstance"."job_id" = ?) AND ("JobInstance"."status" IN (?, ?)))) OR ((("JobInstance"."job_id" = ?) AND ("JobInstance"."status" = ?) AND ("JobInstance"."due_at" <= 1800000000000))) OR ((("JobInstance"."job_id" = ?) AND ("JobInstance"."status" = ?) AND ("JobInstance"."lease_until" > 1800000000000))));
-- params: ["00000000-0000-7000-8000-00000000000j","DISPATCHED","RUNNING","00000000-0000-7000-8000-00000000000j","PENDING","00000000-0000-7000-8000-00000000000j","CANCELLED"]

-- AdmissionInstances.findOldestWaiting
-- [mysql]
SELECT `JobInstance`.`id` AS `JobInstance_id`, `JobInstance`.`namespace` AS `JobInstance_namespace`, `JobInstance`.`app_id` AS `JobInstance_app_id`, `JobInstance`.`request_id` AS `JobInstance_request_id`, `JobInstance`.`request_hash` AS `JobInstance_request_hash`, `JobInstance`.`job_id` AS `JobInstance_job_id`, `JobInstance`.`job_code` AS `JobInstance_job_code`, `JobInstance`.`handler` AS `JobInstance_handler`, `JobInstance`.`fire_time` AS `JobInstance_fire_time`, `JobInstance`.`shard_index` AS `JobInstance_shard_index`, `JobInstance`.`shard_total` AS `JobInstance_shard_total`, `JobInstance`.`trigger_source` AS `JobInstance_trigger_source`, `JobInstance`.`status` AS `JobInstance_status`, `JobInstance`.`staged` AS `JobInstance_staged`, `JobInstance`.`attempt` AS `JobInstance_attempt`, `JobInstance`.`max_attempts` AS `JobInstance_max_attempts`, `JobInstance`.`retry_backoff_ms` AS `JobInstance_retry_backoff_ms`, `JobInstance`.`retry_backoff_kind` AS `JobInstance_retry_backoff_kind`, `JobInstance`.`timeout_ms` AS `JobInstance_timeout_ms`, `JobInstance`.`max_concurrency` AS `JobInstance_max_concurrency`, `JobInstance`.`routing_strategy` AS `JobInstance_routing_strategy`, `JobInstance`.`routing_key` AS `JobInstance_routing_key`, `JobInstance`.`node_id` AS `JobInstance_node_id`, `JobInstance`.`lease_until` AS `JobInstance_lease_until`, `JobInstance`.`fencing_token` AS `JobInstance_fencing_token`, `JobInstance`.`params` AS `JobInstance_params`, `JobInstance`.`result` AS `JobInstance_result`, `JobInstance`.`error` AS `JobInstance_error`, `JobInstance`.`trace_id` AS `JobInstance_trace_id`, `JobInstance`.`traceparent` AS `JobInstance_traceparent`, `JobInstance`.`callback_url` AS `JobInstance_callback_url`, `JobInstance`.`task_name` AS `JobInstance_task_name`, `JobInstance`.`checkpoint_attempt` AS `JobInstance_checkpoint_attempt`, `JobInstance`.`checkpoint_token` AS `JobInstance_checkpoint_token`, `JobInstance`.`checkpoint_at` AS `JobInstance_checkpoint_at`, `JobInstance`.`progress` AS `JobInstance_progress`, `JobInstance`.`progress_note` AS `JobInstance_progress_note`, `JobInstance`.`progress_at` AS `JobInstance_progress_at`, `JobInstance`.`heartbeat_timeout_ms` AS `JobInstance_heartbeat_timeout_ms`, `JobInstance`.`priority` AS `JobInstance_priority`, `JobInstance`.`timeout_mode` AS `JobInstance_timeout_mode`, `JobInstance`.`due_at` AS `JobInstance_due_at`, `JobInstance`.`created_at` AS `JobInstance_created_at`, `JobInstance`.`updated_at` AS `JobInstance_updated_at`, `JobInstance`.`dispatched_at` AS `JobInstance_dispatched_at`, `JobInstance`.`started_at` AS `JobInstance_started_at`, `JobInstance`.`finished_at` AS `JobInstance_finished_at`
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`job_id` = ?) AND (`JobInstance`.`status` = ?))
  ORDER BY `JobInstance`.`fire_time` ASC
  LIMIT 1;
-- params: ["00000000-0000-7000-8000-00000000000j","WAITING"]
-- [sqlite]
SELECT "JobInstance"."id" AS "JobInstance_id", "JobInstance"."namespace" AS "JobInstance_namespace", "JobInstance"."app_id" AS "JobInstance_app_id", "JobInstance"."request_id" AS "JobInstance_request_id", "JobInstance"."request_hash" AS "JobInstance_request_hash", "JobInstance"."job_id" AS "JobInstance_job_id", "JobInstance"."job_code" AS "JobInstance_job_code", "JobInstance"."handler" AS "JobInstance_handler", "JobInstance"."fire_time" AS "JobInstance_fire_time", "JobInstance"."shard_index" AS "JobInstance_shard_index", "JobInstance"."shard_total" AS "JobInstance_shard_total", "JobInstance"."trigger_source" AS "JobInstance_trigger_source", "JobInstance"."status" AS "JobInstance_status", "JobInstance"."staged" AS "JobInstance_staged", "JobInstance"."attempt" AS "JobInstance_attempt", "JobInstance"."max_attempts" AS "JobInstance_max_attempts", "JobInstance"."retry_backoff_ms" AS "JobInstance_retry_backoff_ms", "JobInstance"."retry_backoff_kind" AS "JobInstance_retry_backoff_kind", "JobInstance"."timeout_ms" AS "JobInstance_timeout_ms", "JobInstance"."max_concurrency" AS "JobInstance_max_concurrency", "JobInstance"."routing_strategy" AS "JobInstance_routing_strategy", "JobInstance"."routing_key" AS "JobInstance_routing_key", "JobInstance"."node_id" AS "JobInstance_node_id", "JobInstance"."lease_until" AS "JobInstance_lease_until", "JobInstance"."fencing_token" AS "JobInstance_fencing_token", "JobInstance"."params" AS "JobInstance_params", "JobInstance"."result" AS "JobInstance_result", "JobInstance"."error" AS "JobInstance_error", "JobInstance"."trace_id" AS "JobInstance_trace_id", "JobInstance"."traceparent" AS "JobInstance_traceparent", "JobInstance"."callback_url" AS "JobInstance_callback_url", "JobInstance"."task_name" AS "JobInstance_task_name", "JobInstance"."checkpoint_attempt" AS "JobInstance_checkpoint_attempt", "JobInstance"."checkpoint_token" AS "JobInstance_checkpoint_token", "JobInstance"."checkpoint_at" AS "JobInstance_checkpoint_at", "JobInstance"."progress" AS "JobInstance_progress", "JobInstance"."progress_note" AS "JobInstance_progress_note", "JobInstance"."progress_at" AS "JobInstance_progress_at", "JobInstance"."heartbeat_timeout_ms" AS "JobInstance_heartbeat_timeout_ms", "JobInstance"."priority" AS "JobInstance_priority", "JobInstance"."timeout_mode" AS "JobInstance_timeout_mode", "JobInstance"."due_at" AS "JobInstance_due_at", "JobInstance"."created_at" AS "JobInstance_created_at", "JobInstance"."updated_at" AS "JobInstance_updated_at", "JobInstance"."dispatched_at" AS "JobInstance_dispatched_at", "JobInstance"."started_at" AS "JobInstance_started_at", "JobInstance"."finished_at" AS "JobInstance_finished_at"
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."job_id" = ?) AND ("JobInstance"."status" = ?))
  ORDER BY "JobInstance"."fire_time" ASC
  LIMIT 1;
-- params: ["00000000-0000-7000-8000-00000000000j","WAITING"]

-- AdmissionInstances.findOldestWaiting: of some trigger sources (a paused job)
-- [mysql]
SELECT `JobInstance`.`id` AS `JobInstance_id`, `JobInstance`.`namespace` AS `JobInstance_namespace`, `JobInstance`.`app_id` AS `JobInstance_app_id`, `JobInstance`.`request_id` AS `JobInstance_request_id`, `JobInstance`.`request_hash` AS `JobInstance_request_hash`, `JobInstance`.`job_id` AS `JobInstance_job_id`, `JobInstance`.`job_code` AS `JobInstance_job_code`, `JobInstance`.`handler` AS `JobInstance_handler`, `JobInstance`.`fire_time` AS `JobInstance_fire_time`, `JobInstance`.`shard_index` AS `JobInstance_shard_index`, `JobInstance`.`shard_total` AS `JobInstance_shard_total`, `JobInstance`.`trigger_source` AS `JobInstance_trigger_source`, `JobInstance`.`status` AS `JobInstance_status`, `JobInstance`.`staged` AS `JobInstance_staged`, `JobInstance`.`attempt` AS `JobInstance_attempt`, `JobInstance`.`max_attempts` AS `JobInstance_max_attempts`, `JobInstance`.`retry_backoff_ms` AS `JobInstance_retry_backoff_ms`, `JobInstance`.`retry_backoff_kind` AS `JobInstance_retry_backoff_kind`, `JobInstance`.`timeout_ms` AS `JobInstance_timeout_ms`, `JobInstance`.`max_concurrency` AS `JobInstance_max_concurrency`, `JobInstance`.`routing_strategy` AS `JobInstance_routing_strategy`, `JobInstance`.`routing_key` AS `JobInstance_routing_key`, `JobInstance`.`node_id` AS `JobInstance_node_id`, `JobInstance`.`lease_until` AS `JobInstance_lease_until`, `JobInstance`.`fencing_token` AS `JobInstance_fencing_token`, `JobInstance`.`params` AS `JobInstance_params`, `JobInstance`.`result` AS `JobInstance_result`, `JobInstance`.`error` AS `JobInstance_error`, `JobInstance`.`trace_id` AS `JobInstance_trace_id`, `JobInstance`.`traceparent` AS `JobInstance_traceparent`, `JobInstance`.`callback_url` AS `JobInstance_callback_url`, `JobInstance`.`task_name` AS `JobInstance_task_name`, `JobInstance`.`checkpoint_attempt` AS `JobInstance_checkpoint_attempt`, `JobInstance`.`checkpoint_token` AS `JobInstance_checkpoint_token`, `JobInstance`.`checkpoint_at` AS `JobInstance_checkpoint_at`, `JobInstance`.`progress` AS `JobInstance_progress`, `JobInstance`.`progress_note` AS `JobInstance_progress_note`, `JobInstance`.`progress_at` AS `JobInstance_progress_at`, `JobInstance`.`heartbeat_timeout_ms` AS `JobInstance_heartbeat_timeout_ms`, `JobInstance`.`priority` AS `JobInstance_priority`, `JobInstance`.`timeout_mode` AS `JobInstance_timeout_mode`, `JobInstance`.`due_at` AS `JobInstance_due_at`, `JobInstance`.`created_at` AS `JobInstance_created_at`, `JobInstance`.`updated_at` AS `JobInstance_updated_at`, `JobInstance`.`dispatched_at` AS `JobInstance_dispatched_at`, `JobInstance`.`started_at` AS `JobInstance_started_at`, `JobInstance`.`finished_at` AS `JobInstance_finished_at`
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`job_id` = ?) AND (`JobInstance`.`status` = ?) AND (`JobInstance`.`trigger_source` IN (?, ?)))
  ORDER BY `JobInstance`.`fire_time` ASC
  LIMIT 1;
-- params: ["00000000-0000-7000-8000-00000000000j","WAITING","MANUAL","BACKFILL"]
-- [sqlite]
SELECT "JobInstance"."id" AS "JobInstance_id", "JobInstance"."namespace" AS "JobInstance_namespace", "JobInstance"."app_id" AS "JobInstance_app_id", "JobInstance"."request_id" AS "JobInstance_request_id", "JobInstance"."request_hash" AS "JobInstance_request_hash", "JobInstance"."job_id" AS "JobInstance_job_id", "JobInstance"."job_code" AS "JobInstance_job_code", "JobInstance"."handler" AS "JobInstance_handler", "JobInstance"."fire_time" AS "JobInstance_fire_time", "JobInstance"."shard_index" AS "JobInstance_shard_index", "JobInstance"."shard_total" AS "JobInstance_shard_total", "JobInstance"."trigger_source" AS "JobInstance_trigger_source", "JobInstance"."status" AS "JobInstance_status", "JobInstance"."staged" AS "JobInstance_staged", "JobInstance"."attempt" AS "JobInstance_attempt", "JobInstance"."max_attempts" AS "JobInstance_max_attempts", "JobInstance"."retry_backoff_ms" AS "JobInstance_retry_backoff_ms", "JobInstance"."retry_backoff_kind" AS "JobInstance_retry_backoff_kind", "JobInstance"."timeout_ms" AS "JobInstance_timeout_ms", "JobInstance"."max_concurrency" AS "JobInstance_max_concurrency", "JobInstance"."routing_strategy" AS "JobInstance_routing_strategy", "JobInstance"."routing_key" AS "JobInstance_routing_key", "JobInstance"."node_id" AS "JobInstance_node_id", "JobInstance"."lease_until" AS "JobInstance_lease_until", "JobInstance"."fencing_token" AS "JobInstance_fencing_token", "JobInstance"."params" AS "JobInstance_params", "JobInstance"."result" AS "JobInstance_result", "JobInstance"."error" AS "JobInstance_error", "JobInstance"."trace_id" AS "JobInstance_trace_id", "JobInstance"."traceparent" AS "JobInstance_traceparent", "JobInstance"."callback_url" AS "JobInstance_callback_url", "JobInstance"."task_name" AS "JobInstance_task_name", "JobInstance"."checkpoint_attempt" AS "JobInstance_checkpoint_attempt", "JobInstance"."checkpoint_token" AS "JobInstance_checkpoint_token", "JobInstance"."checkpoint_at" AS "JobInstance_checkpoint_at", "JobInstance"."progress" AS "JobInstance_progress", "JobInstance"."progress_note" AS "JobInstance_progress_note", "JobInstance"."progress_at" AS "JobInstance_progress_at", "JobInstance"."heartbeat_timeout_ms" AS "JobInstance_heartbeat_timeout_ms", "JobInstance"."priority" AS "JobInstance_priority", "JobInstance"."timeout_mode" AS "JobInstance_timeout_mode", "JobInstance"."due_at" AS "JobInstance_due_at", "JobInstance"."created_at" AS "JobInstance_created_at", "JobInstance"."updated_at" AS "JobInstance_updated_at", "JobInstance"."dispatched_at" AS "JobInstance_dispatched_at", "JobInstance"."started_at" AS "JobInstance_started_at", "JobInstance"."finished_at" AS "JobInstance_finished_at"
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."job_id" = ?) AND ("JobInstance"."status" = ?) AND ("JobInstance"."trigger_source" IN (?, ?)))
  ORDER BY "JobInstance"."fire_time" ASC
  LIMIT 1;
-- params: ["00000000-0000-7000-8000-00000000000j","WAITING","MANUAL","BACKFILL"]

-- AdmissionInstances.isCancelledAt
-- [mysql]
SELECT 1 AS `row_exists`
  FROM (SELECT 1 AS dummy_column) `dummy_table`
  WHERE EXISTS (SELECT 1
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`id` = ?) AND (`JobInstance`.`status` = ?) AND (`JobInstance`.`fencing_token` = ?)))
  LIMIT 1;
-- params: ["00000000-0000-7000-8000-000000000090","CANCELLED",1]
-- [sqlite]
SELECT 1 AS "row_exists"
  FROM (SELECT 1 AS dummy_column) "dummy_table"
  WHERE EXISTS (SELECT 1
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."id" = ?) AND ("JobInstance"."status" = ?) AND ("JobInstance"."fencing_token" = 1)))
  LIMIT 1;
-- params: ["00000000-0000-7000-8000-000000000090","CANCELLED"]

-- AdmissionInstances.clearCancelledLease
-- [mysql]
UPDATE `job_instance`
  SET `lease_until` = ?
  WHERE `id` = ? AND `status` = ? AND `fencing_token` = ?;
-- params: [null,"00000000-0000-7000-8000-000000000090","CANCELLED",1]
-- [sqlite]
UPDATE "job_instance"
  SET "lease_until" = ?
  WHERE "id" = ? AND "status" = ? AND "fencing_token" = 1;
-- params: [null,"00000000-0000-7000-8000-000000000090","CANCELLED"]

-- AdmissionInstances.leaseUntilOf
-- [mysql]
SELECT `JobInstance`.`id` AS `JobInstance_id`, `JobInstance`.`lease_until` AS `JobInstance_lease_until`
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`id` = ?))
  LIMIT 1;
-- params: ["00000000-0000-7000-8000-000000000090"]
-- [sqlite]
SELECT "JobInstance"."id" AS "JobInstance_id", "JobInstance"."lease_until" AS "JobInstance_lease_until"
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."id" = ?))
  LIMIT 1;
-- params: ["00000000-0000-7000-8000-000000000090"]

-- AdmissionInstances.findStopping
-- [mysql]
SELECT `JobInstance`.`id` AS `JobInstance_id`, `JobInstance`.`job_id` AS `JobInstance_job_id`, `JobInstance`.`lease_until` AS `JobInstance_lease_until`
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`job_id` IN (?)) AND (`JobInstance`.`status` = ?) AND (`JobInstance`.`lease_until` > ?));
-- params: ["00000000-0000-7000-8000-00000000000j","CANCELLED",1800000000000]
-- [sqlite]
SELECT "JobInstance"."id" AS "JobInstance_id", "JobInstance"."job_id" AS "JobInstance_job_id", "JobInstance"."lease_until" AS "JobInstance_lease_until"
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."job_id" IN (?)) AND ("JobInstance"."status" = ?) AND ("JobInstance"."lease_until" > 1800000000000));
-- params: ["00000000-0000-7000-8000-00000000000j","CANCELLED"]

-- AdmissionInstances.idsInStatus
-- [mysql]
SELECT `JobInstance`.`id` AS `JobInstance_id`
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`id` IN (?)) AND (`JobInstance`.`status` IN (?, ?)));
-- params: ["00000000-0000-7000-8000-000000000090","WAITING","SUCCESS"]
-- [sqlite]
SELECT "JobInstance"."id" AS "JobInstance_id"
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."id" IN (?)) AND ("JobInstance"."status" IN (?, ?)));
-- params: ["00000000-0000-7000-8000-000000000090","WAITING","SUCCESS"]

-- AdmissionInstances.findSlotHolders
-- [mysql]
SELECT `JobInstance`.`id` AS `JobInstance_id`, `JobInstance`.`job_id` AS `JobInstance_job_id`, `JobInstance`.`status` AS `JobInstance_status`, `JobInstance`.`max_concurrency` AS `JobInstance_max_concurrency`, `JobInstance`.`timeout_ms` AS `JobInstance_timeout_ms`, `JobInstance`.`timeout_mode` AS `JobInstance_timeout_mode`
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`namespace` = ?) AND (`JobInstance`.`status` IN (?, ?)) AND (`JobInstance`.`max_concurrency` > ?) AND (`JobInstance`.`job_id` IN (?)) AND (`JobInstance`.`id` > ?))
  ORDER BY `JobInstance_id` ASC
  LIMIT 100;
-- params: ["tw-sql-snapshot","DISPATCHED","RUNNING",0,"00000000-0000-7000-8000-00000000000j","00000000-0000-7000-8000-000000000001"]
-- [sqlite]
SELECT "JobInstance"."id" AS "JobInstance_id", "JobInstance"."job_id" AS "JobInstance_job_id", "JobInstance"."status" AS "JobInstance_status", "JobInstance"."max_concurrency" AS "JobInstance_max_concurrency", "JobInstance"."timeout_ms" AS "JobInstance_timeout_ms", "JobInstance"."timeout_mode" AS "JobInstance_timeout_mode"
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."namespace" = ?) AND ("JobInstance"."status" IN (?, ?)) AND ("JobInstance"."max_concurrency" > 0) AND ("JobInstance"."job_id" IN (?)) AND ("JobInstance"."id" > ?))
  ORDER BY "JobInstance_id" ASC
  LIMIT 100;
-- params: ["tw-sql-snapshot","DISPATCHED","RUNNING","00000000-0000-7000-8000-00000000000j","00000000-0000-7000-8000-000000000001"]
