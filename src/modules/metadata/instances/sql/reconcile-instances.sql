-- The statements this job_instance query object issues, one block per call of test/utils/instance-sql-cases.ts;
-- a block that differs by dialect shows both. Written by the instance-sql tests with UPDATE_SQL_SNAPSHOTS=1
-- (SQLite: unit tier, MySQL: integration tier); they fail on any difference.

-- ReconcileInstances.findPendingDue
-- [mysql]
SELECT `i`.`id` AS `i_id`, `i`.`namespace` AS `i_namespace`, `i`.`app_id` AS `i_app_id`, `i`.`request_id` AS `i_request_id`, `i`.`request_hash` AS `i_request_hash`, `i`.`job_id` AS `i_job_id`, `i`.`job_code` AS `i_job_code`, `i`.`handler` AS `i_handler`, `i`.`fire_time` AS `i_fire_time`, `i`.`shard_index` AS `i_shard_index`, `i`.`shard_total` AS `i_shard_total`, `i`.`trigger_source` AS `i_trigger_source`, `i`.`status` AS `i_status`, `i`.`staged` AS `i_staged`, `i`.`attempt` AS `i_attempt`, `i`.`max_attempts` AS `i_max_attempts`, `i`.`retry_backoff_ms` AS `i_retry_backoff_ms`, `i`.`retry_backoff_kind` AS `i_retry_backoff_kind`, `i`.`timeout_ms` AS `i_timeout_ms`, `i`.`max_concurrency` AS `i_max_concurrency`, `i`.`routing_strategy` AS `i_routing_strategy`, `i`.`routing_key` AS `i_routing_key`, `i`.`node_id` AS `i_node_id`, `i`.`lease_until` AS `i_lease_until`, `i`.`fencing_token` AS `i_fencing_token`, `i`.`params` AS `i_params`, `i`.`result` AS `i_result`, `i`.`error` AS `i_error`, `i`.`trace_id` AS `i_trace_id`, `i`.`traceparent` AS `i_traceparent`, `i`.`callback_url` AS `i_callback_url`, `i`.`task_name` AS `i_task_name`, `i`.`checkpoint_attempt` AS `i_checkpoint_attempt`, `i`.`checkpoint_token` AS `i_checkpoint_token`, `i`.`checkpoint_at` AS `i_checkpoint_at`, `i`.`progress` AS `i_progress`, `i`.`progress_note` AS `i_progress_note`, `i`.`progress_at` AS `i_progress_at`, `i`.`heartbeat_timeout_ms` AS `i_heartbeat_timeout_ms`, `i`.`priority` AS `i_priority`, `i`.`timeout_mode` AS `i_timeout_mode`, `i`.`due_at` AS `i_due_at`, `i`.`created_at` AS `i_created_at`, `i`.`updated_at` AS `i_updated_at`, `i`.`dispatched_at` AS `i_dispatched_at`, `i`.`started_at` AS `i_started_at`, `i`.`finished_at` AS `i_finished_at`, `i`.`due_at` - `i`.`priority` * ? AS `ready_rank`
  FROM `job_instance` `i`
  WHERE `i`.`namespace` = ? AND `i`.`status` = ? AND `i`.`due_at` <= ?
  ORDER BY `ready_rank` ASC, `i`.`id` ASC
  LIMIT 100;
-- params: [10000,"tw-sql-snapshot","PENDING",1800000000000]
-- [sqlite]
SELECT "i"."id" AS "i_id", "i"."namespace" AS "i_namespace", "i"."app_id" AS "i_app_id", "i"."request_id" AS "i_request_id", "i"."request_hash" AS "i_request_hash", "i"."job_id" AS "i_job_id", "i"."job_code" AS "i_job_code", "i"."handler" AS "i_handler", "i"."fire_time" AS "i_fire_time", "i"."shard_index" AS "i_shard_index", "i"."shard_total" AS "i_shard_total", "i"."trigger_source" AS "i_trigger_source", "i"."status" AS "i_status", "i"."staged" AS "i_staged", "i"."attempt" AS "i_attempt", "i"."max_attempts" AS "i_max_attempts", "i"."retry_backoff_ms" AS "i_retry_backoff_ms", "i"."retry_backoff_kind" AS "i_retry_backoff_kind", "i"."timeout_ms" AS "i_timeout_ms", "i"."max_concurrency" AS "i_max_concurrency", "i"."routing_strategy" AS "i_routing_strategy", "i"."routing_key" AS "i_routing_key", "i"."node_id" AS "i_node_id", "i"."lease_until" AS "i_lease_until", "i"."fencing_token" AS "i_fencing_token", "i"."params" AS "i_params", "i"."result" AS "i_result", "i"."error" AS "i_error", "i"."trace_id" AS "i_trace_id", "i"."traceparent" AS "i_traceparent", "i"."callback_url" AS "i_callback_url", "i"."task_name" AS "i_task_name", "i"."checkpoint_attempt" AS "i_checkpoint_attempt", "i"."checkpoint_token" AS "i_checkpoint_token", "i"."checkpoint_at" AS "i_checkpoint_at", "i"."progress" AS "i_progress", "i"."progress_note" AS "i_progress_note", "i"."progress_at" AS "i_progress_at", "i"."heartbeat_timeout_ms" AS "i_heartbeat_timeout_ms", "i"."priority" AS "i_priority", "i"."timeout_mode" AS "i_timeout_mode", "i"."due_at" AS "i_due_at", "i"."created_at" AS "i_created_at", "i"."updated_at" AS "i_updated_at", "i"."dispatched_at" AS "i_dispatched_at", "i"."started_at" AS "i_started_at", "i"."finished_at" AS "i_finished_at", "i"."due_at" - "i"."priority" * 10000 AS "ready_rank"
  FROM "job_instance" "i"
  WHERE "i"."namespace" = ? AND "i"."status" = ? AND "i"."due_at" <= 1800000000000
  ORDER BY "ready_rank" ASC, "i"."id" ASC
  LIMIT 100;
-- params: ["tw-sql-snapshot","PENDING"]

-- ReconcileInstances.findExpiredLeases
-- [mysql]
SELECT `JobInstance`.`id` AS `JobInstance_id`, `JobInstance`.`namespace` AS `JobInstance_namespace`, `JobInstance`.`app_id` AS `JobInstance_app_id`, `JobInstance`.`request_id` AS `JobInstance_request_id`, `JobInstance`.`request_hash` AS `JobInstance_request_hash`, `JobInstance`.`job_id` AS `JobInstance_job_id`, `JobInstance`.`job_code` AS `JobInstance_job_code`, `JobInstance`.`handler` AS `JobInstance_handler`, `JobInstance`.`fire_time` AS `JobInstance_fire_time`, `JobInstance`.`shard_index` AS `JobInstance_shard_index`, `JobInstance`.`shard_total` AS `JobInstance_shard_total`, `JobInstance`.`trigger_source` AS `JobInstance_trigger_source`, `JobInstance`.`status` AS `JobInstance_status`, `JobInstance`.`staged` AS `JobInstance_staged`, `JobInstance`.`attempt` AS `JobInstance_attempt`, `JobInstance`.`max_attempts` AS `JobInstance_max_attempts`, `JobInstance`.`retry_backoff_ms` AS `JobInstance_retry_backoff_ms`, `JobInstance`.`retry_backoff_kind` AS `JobInstance_retry_backoff_kind`, `JobInstance`.`timeout_ms` AS `JobInstance_timeout_ms`, `JobInstance`.`max_concurrency` AS `JobInstance_max_concurrency`, `JobInstance`.`routing_strategy` AS `JobInstance_routing_strategy`, `JobInstance`.`routing_key` AS `JobInstance_routing_key`, `JobInstance`.`node_id` AS `JobInstance_node_id`, `JobInstance`.`lease_until` AS `JobInstance_lease_until`, `JobInstance`.`fencing_token` AS `JobInstance_fencing_token`, `JobInstance`.`params` AS `JobInstance_params`, `JobInstance`.`result` AS `JobInstance_result`, `JobInstance`.`error` AS `JobInstance_error`, `JobInstance`.`trace_id` AS `JobInstance_trace_id`, `JobInstance`.`traceparent` AS `JobInstance_traceparent`, `JobInstance`.`callback_url` AS `JobInstance_callback_url`, `JobInstance`.`task_name` AS `JobInstance_task_name`, `JobInstance`.`checkpoint_attempt` AS `JobInstance_checkpoint_attempt`, `JobInstance`.`checkpoint_token` AS `JobInstance_checkpoint_token`, `JobInstance`.`checkpoint_at` AS `JobInstance_checkpoint_at`, `JobInstance`.`progress` AS `JobInstance_progress`, `JobInstance`.`progress_note` AS `JobInstance_progress_note`, `JobInstance`.`progress_at` AS `JobInstance_progress_at`, `JobInstance`.`heartbeat_timeout_ms` AS `JobInstance_heartbeat_timeout_ms`, `JobInstance`.`priority` AS `JobInstance_priority`, `JobInstance`.`timeout_mode` AS `JobInstance_timeout_mode`, `JobInstance`.`due_at` AS `JobInstance_due_at`, `JobInstance`.`created_at` AS `JobInstance_created_at`, `JobInstance`.`updated_at` AS `JobInstance_updated_at`, `JobInstance`.`dispatched_at` AS `JobInstance_dispatched_at`, `JobInstance`.`started_at` AS `JobInstance_started_at`, `JobInstance`.`finished_at` AS `JobInstance_finished_at`
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`namespace` = ?) AND (`JobInstance`.`status` = ?) AND (`JobInstance`.`lease_until` < ?))
  LIMIT 100;
-- params: ["tw-sql-snapshot","RUNNING",1800000000000]
-- [sqlite]
SELECT "JobInstance"."id" AS "JobInstance_id", "JobInstance"."namespace" AS "JobInstance_namespace", "JobInstance"."app_id" AS "JobInstance_app_id", "JobInstance"."request_id" AS "JobInstance_request_id", "JobInstance"."request_hash" AS "JobInstance_request_hash", "JobInstance"."job_id" AS "JobInstance_job_id", "JobInstance"."job_code" AS "JobInstance_job_code", "JobInstance"."handler" AS "JobInstance_handler", "JobInstance"."fire_time" AS "JobInstance_fire_time", "JobInstance"."shard_index" AS "JobInstance_shard_index", "JobInstance"."shard_total" AS "JobInstance_shard_total", "JobInstance"."trigger_source" AS "JobInstance_trigger_source", "JobInstance"."status" AS "JobInstance_status", "JobInstance"."staged" AS "JobInstance_staged", "JobInstance"."attempt" AS "JobInstance_attempt", "JobInstance"."max_attempts" AS "JobInstance_max_attempts", "JobInstance"."retry_backoff_ms" AS "JobInstance_retry_backoff_ms", "JobInstance"."retry_backoff_kind" AS "JobInstance_retry_backoff_kind", "JobInstance"."timeout_ms" AS "JobInstance_timeout_ms", "JobInstance"."max_concurrency" AS "JobInstance_max_concurrency", "JobInstance"."routing_strategy" AS "JobInstance_routing_strategy", "JobInstance"."routing_key" AS "JobInstance_routing_key", "JobInstance"."node_id" AS "JobInstance_node_id", "JobInstance"."lease_until" AS "JobInstance_lease_until", "JobInstance"."fencing_token" AS "JobInstance_fencing_token", "JobInstance"."params" AS "JobInstance_params", "JobInstance"."result" AS "JobInstance_result", "JobInstance"."error" AS "JobInstance_error", "JobInstance"."trace_id" AS "JobInstance_trace_id", "JobInstance"."traceparent" AS "JobInstance_traceparent", "JobInstance"."callback_url" AS "JobInstance_callback_url", "JobInstance"."task_name" AS "JobInstance_task_name", "JobInstance"."checkpoint_attempt" AS "JobInstance_checkpoint_attempt", "JobInstance"."checkpoint_token" AS "JobInstance_checkpoint_token", "JobInstance"."checkpoint_at" AS "JobInstance_checkpoint_at", "JobInstance"."progress" AS "JobInstance_progress", "JobInstance"."progress_note" AS "JobInstance_progress_note", "JobInstance"."progress_at" AS "JobInstance_progress_at", "JobInstance"."heartbeat_timeout_ms" AS "JobInstance_heartbeat_timeout_ms", "JobInstance"."priority" AS "JobInstance_priority", "JobInstance"."timeout_mode" AS "JobInstance_timeout_mode", "JobInstance"."due_at" AS "JobInstance_due_at", "JobInstance"."created_at" AS "JobInstance_created_at", "JobInstance"."updated_at" AS "JobInstance_updated_at", "JobInstance"."dispatched_at" AS "JobInstance_dispatched_at", "JobInstance"."started_at" AS "JobInstance_started_at", "JobInstance"."finished_at" AS "JobInstance_finished_at"
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."namespace" = ?) AND ("JobInstance"."status" = ?) AND ("JobInstance"."lease_until" < 1800000000000))
  LIMIT 100;
-- params: ["tw-sql-snapshot","RUNNING"]

-- ReconcileInstances.findDispatchedRefsBefore
-- [mysql]
SELECT `JobInstance`.`id` AS `JobInstance_id`, `JobInstance`.`node_id` AS `JobInstance_node_id`, `JobInstance`.`dispatched_at` AS `JobInstance_dispatched_at`
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`namespace` = ?) AND (`JobInstance`.`status` = ?) AND (`JobInstance`.`dispatched_at` < ?))
  LIMIT 100;
-- params: ["tw-sql-snapshot","DISPATCHED",1800000000000]
-- [sqlite]
SELECT "JobInstance"."id" AS "JobInstance_id", "JobInstance"."node_id" AS "JobInstance_node_id", "JobInstance"."dispatched_at" AS "JobInstance_dispatched_at"
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."namespace" = ?) AND ("JobInstance"."status" = ?) AND ("JobInstance"."dispatched_at" < 1800000000000))
  LIMIT 100;
-- params: ["tw-sql-snapshot","DISPATCHED"]

-- ReconcileInstances.nodesWithWork
-- [mysql]
SELECT DISTINCT `i`.`node_id` AS `nodeId`
  FROM `job_instance` `i`
  WHERE `i`.`namespace` = ? AND `i`.`status` IN (?, ?);
-- params: ["tw-sql-snapshot","DISPATCHED","RUNNING"]
-- [sqlite]
SELECT DISTINCT "i"."node_id" AS "nodeId"
  FROM "job_instance" "i"
  WHERE "i"."namespace" = ? AND "i"."status" IN (?, ?);
-- params: ["tw-sql-snapshot","DISPATCHED","RUNNING"]

-- ReconcileInstances.jobsWithWaiting
-- [mysql]
SELECT DISTINCT `i`.`job_id` AS `jobId`
  FROM `job_instance` `i`
  WHERE `i`.`namespace` = ? AND `i`.`status` = ? AND `i`.`job_id` > ?
  ORDER BY `i`.`job_id` ASC
  LIMIT 100;
-- params: ["tw-sql-snapshot","WAITING","00000000-0000-7000-8000-00000000000j"]
-- [sqlite]
SELECT DISTINCT "i"."job_id" AS "jobId"
  FROM "job_instance" "i"
  WHERE "i"."namespace" = ? AND "i"."status" = ? AND "i"."job_id" > ?
  ORDER BY "i"."job_id" ASC
  LIMIT 100;
-- params: ["tw-sql-snapshot","WAITING","00000000-0000-7000-8000-00000000000j"]

-- ReconcileInstances.pendingDueByHandler: handlers served for every app and for one app left out
-- [mysql]
SELECT `i`.`handler` AS `handler`, `i`.`app_id` AS `appId`, COUNT(*) AS `n`, MIN(`i`.`created_at`) AS `oldest`
  FROM `job_instance` `i`
  WHERE `i`.`status` = ? AND `i`.`namespace` = ? AND `i`.`due_at` <= ? AND `i`.`handler` NOT IN (?, ?) AND NOT (`i`.`app_id` = ? AND `i`.`handler` IN (?))
  GROUP BY `i`.`app_id`, `i`.`handler`
  ORDER BY MIN(`i`.`created_at`) ASC, `i`.`app_id` ASC, `i`.`handler` ASC
  LIMIT 1000;
-- params: ["PENDING","tw-sql-snapshot",1800000000000,"noop","http","app-1","h"]
-- [sqlite]
SELECT "i"."handler" AS "handler", "i"."app_id" AS "appId", COUNT(*) AS "n", MIN("i"."created_at") AS "oldest"
  FROM "job_instance" "i"
  WHERE "i"."status" = ? AND "i"."namespace" = ? AND "i"."due_at" <= 1800000000000 AND "i"."handler" NOT IN (?, ?) AND NOT ("i"."app_id" = ? AND "i"."handler" IN (?))
  GROUP BY "i"."app_id", "i"."handler"
  ORDER BY MIN("i"."created_at") ASC, "i"."app_id" ASC, "i"."handler" ASC
  LIMIT 1000;
-- params: ["PENDING","tw-sql-snapshot","noop","http","app-1","h"]
