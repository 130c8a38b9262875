-- The statements this job_instance query object issues, one block per call of test/utils/instance-sql-cases.ts;
-- a block that differs by dialect shows both. Written by the instance-sql tests with UPDATE_SQL_SNAPSHOTS=1
-- (SQLite: unit tier, MySQL: integration tier); they fail on any difference.

-- InstanceReads.findById
-- [mysql]
SELECT `JobInstance`.`id` AS `JobInstance_id`, `JobInstance`.`namespace` AS `JobInstance_namespace`, `JobInstance`.`app_id` AS `JobInstance_app_id`, `JobInstance`.`request_id` AS `JobInstance_request_id`, `JobInstance`.`request_hash` AS `JobInstance_request_hash`, `JobInstance`.`job_id` AS `JobInstance_job_id`, `JobInstance`.`job_code` AS `JobInstance_job_code`, `JobInstance`.`handler` AS `JobInstance_handler`, `JobInstance`.`fire_time` AS `JobInstance_fire_time`, `JobInstance`.`shard_index` AS `JobInstance_shard_index`, `JobInstance`.`shard_total` AS `JobInstance_shard_total`, `JobInstance`.`trigger_source` AS `JobInstance_trigger_source`, `JobInstance`.`status` AS `JobInstance_status`, `JobInstance`.`staged` AS `JobInstance_staged`, `JobInstance`.`attempt` AS `JobInstance_attempt`, `JobInstance`.`max_attempts` AS `JobInstance_max_attempts`, `JobInstance`.`retry_backoff_ms` AS `JobInstance_retry_backoff_ms`, `JobInstance`.`retry_backoff_kind` AS `JobInstance_retry_backoff_kind`, `JobInstance`.`timeout_ms` AS `JobInstance_timeout_ms`, `JobInstance`.`max_concurrency` AS `JobInstance_max_concurrency`, `JobInstance`.`routing_strategy` AS `JobInstance_routing_strategy`, `JobInstance`.`routing_key` AS `JobInstance_routing_key`, `JobInstance`.`node_id` AS `JobInstance_node_id`, `JobInstance`.`lease_until` AS `JobInstance_lease_until`, `JobInstance`.`fencing_token` AS `JobInstance_fencing_token`, `JobInstance`.`params` AS `JobInstance_params`, `JobInstance`.`result` AS `JobInstance_result`, `JobInstance`.`error` AS `JobInstance_error`, `JobInstance`.`trace_id` AS `JobInstance_trace_id`, `JobInstance`.`traceparent` AS `JobInstance_traceparent`, `JobInstance`.`callback_url` AS `JobInstance_callback_url`, `JobInstance`.`task_name` AS `JobInstance_task_name`, `JobInstance`.`checkpoint_attempt` AS `JobInstance_checkpoint_attempt`, `JobInstance`.`checkpoint_token` AS `JobInstance_checkpoint_token`, `JobInstance`.`checkpoint_at` AS `JobInstance_checkpoint_at`, `JobInstance`.`progress` AS `JobInstance_progress`, `JobInstance`.`progress_note` AS `JobInstance_progress_note`, `JobInstance`.`progress_at` AS `JobInstance_progress_at`, `JobInstance`.`heartbeat_timeout_ms` AS `JobInstance_heartbeat_timeout_ms`, `JobInstance`.`priority` AS `JobInstance_priority`, `JobInstance`.`timeout_mode` AS `JobInstance_timeout_mode`, `JobInstance`.`due_at` AS `JobInstance_due_at`, `JobInstance`.`created_at` AS `JobInstance_created_at`, `JobInstance`.`updated_at` AS `JobInstance_updated_at`, `JobInstance`.`dispatched_at` AS `JobInstance_dispatched_at`, `JobInstance`.`started_at` AS `JobInstance_started_at`, `JobInstance`.`finished_at` AS `JobInstance_finished_at`
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`id` = ?))
  LIMIT 1;
-- params: ["00000000-0000-7000-8000-000000000001"]
-- [sqlite]
SELECT "JobInstance"."id" AS "JobInstance_id", "JobInstance"."namespace" AS "JobInstance_namespace", "JobInstance"."app_id" AS "JobInstance_app_id", "JobInstance"."request_id" AS "JobInstance_request_id", "JobInstance"."request_hash" AS "JobInstance_request_hash", "JobInstance"."job_id" AS "JobInstance_job_id", "JobInstance"."job_code" AS "JobInstance_job_code", "JobInstance"."handler" AS "JobInstance_handler", "JobInstance"."fire_time" AS "JobInstance_fire_time", "JobInstance"."shard_index" AS "JobInstance_shard_index", "JobInstance"."shard_total" AS "JobInstance_shard_total", "JobInstance"."trigger_source" AS "JobInstance_trigger_source", "JobInstance"."status" AS "JobInstance_status", "JobInstance"."staged" AS "JobInstance_staged", "JobInstance"."attempt" AS "JobInstance_attempt", "JobInstance"."max_attempts" AS "JobInstance_max_attempts", "JobInstance"."retry_backoff_ms" AS "JobInstance_retry_backoff_ms", "JobInstance"."retry_backoff_kind" AS "JobInstance_retry_backoff_kind", "JobInstance"."timeout_ms" AS "JobInstance_timeout_ms", "JobInstance"."max_concurrency" AS "JobInstance_max_concurrency", "JobInstance"."routing_strategy" AS "JobInstance_routing_strategy", "JobInstance"."routing_key" AS "JobInstance_routing_key", "JobInstance"."node_id" AS "JobInstance_node_id", "JobInstance"."lease_until" AS "JobInstance_lease_until", "JobInstance"."fencing_token" AS "JobInstance_fencing_token", "JobInstance"."params" AS "JobInstance_params", "JobInstance"."result" AS "JobInstance_result", "JobInstance"."error" AS "JobInstance_error", "JobInstance"."trace_id" AS "JobInstance_trace_id", "JobInstance"."traceparent" AS "JobInstance_traceparent", "JobInstance"."callback_url" AS "JobInstance_callback_url", "JobInstance"."task_name" AS "JobInstance_task_name", "JobInstance"."checkpoint_attempt" AS "JobInstance_checkpoint_attempt", "JobInstance"."checkpoint_token" AS "JobInstance_checkpoint_token", "JobInstance"."checkpoint_at" AS "JobInstance_checkpoint_at", "JobInstance"."progress" AS "JobInstance_progress", "JobInstance"."progress_note" AS "JobInstance_progress_note", "JobInstance"."progress_at" AS "JobInstance_progress_at", "JobInstance"."heartbeat_timeout_ms" AS "JobInstance_heartbeat_timeout_ms", "JobInstance"."priority" AS "JobInstance_priority", "JobInstance"."timeout_mode" AS "JobInstance_timeout_mode", "JobInstance"."due_at" AS "JobInstance_due_at", "JobInstance"."created_at" AS "JobInstance_created_at", "JobInstance"."updated_at" AS "JobInstance_updated_at", "JobInstance"."dispatched_at" AS "JobInstance_dispatched_at", "JobInstance"."started_at" AS "JobInstance_started_at", "JobInstance"."finished_at" AS "JobInstance_finished_at"
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."id" = ?))
  LIMIT 1;
-- params: ["00000000-0000-7000-8000-000000000001"]

-- InstanceReads.findByIds
-- [mysql]
SELECT `JobInstance`.`id` AS `JobInstance_id`, `JobInstance`.`namespace` AS `JobInstance_namespace`, `JobInstance`.`app_id` AS `JobInstance_app_id`, `JobInstance`.`request_id` AS `JobInstance_request_id`, `JobInstance`.`request_hash` AS `JobInstance_request_hash`, `JobInstance`.`job_id` AS `JobInstance_job_id`, `JobInstance`.`job_code` AS `JobInstance_job_code`, `JobInstance`.`handler` AS `JobInstance_handler`, `JobInstance`.`fire_time` AS `JobInstance_fire_time`, `JobInstance`.`shard_index` AS `JobInstance_shard_index`, `JobInstance`.`shard_total` AS `JobInstance_shard_total`, `JobInstance`.`trigger_source` AS `JobInstance_trigger_source`, `JobInstance`.`status` AS `JobInstance_status`, `JobInstance`.`staged` AS `JobInstance_staged`, `JobInstance`.`attempt` AS `JobInstance_attempt`, `JobInstance`.`max_attempts` AS `JobInstance_max_attempts`, `JobInstance`.`retry_backoff_ms` AS `JobInstance_retry_backoff_ms`, `JobInstance`.`retry_backoff_kind` AS `JobInstance_retry_backoff_kind`, `JobInstance`.`timeout_ms` AS `JobInstance_timeout_ms`, `JobInstance`.`max_concurrency` AS `JobInstance_max_concurrency`, `JobInstance`.`routing_strategy` AS `JobInstance_routing_strategy`, `JobInstance`.`routing_key` AS `JobInstance_routing_key`, `JobInstance`.`node_id` AS `JobInstance_node_id`, `JobInstance`.`lease_until` AS `JobInstance_lease_until`, `JobInstance`.`fencing_token` AS `JobInstance_fencing_token`, `JobInstance`.`params` AS `JobInstance_params`, `JobInstance`.`result` AS `JobInstance_result`, `JobInstance`.`error` AS `JobInstance_error`, `JobInstance`.`trace_id` AS `JobInstance_trace_id`, `JobInstance`.`traceparent` AS `JobInstance_traceparent`, `JobInstance`.`callback_url` AS `JobInstance_callback_url`, `JobInstance`.`task_name` AS `JobInstance_task_name`, `JobInstance`.`checkpoint_attempt` AS `JobInstance_checkpoint_attempt`, `JobInstance`.`checkpoint_token` AS `JobInstance_checkpoint_token`, `JobInstance`.`checkpoint_at` AS `JobInstance_checkpoint_at`, `JobInstance`.`progress` AS `JobInstance_progress`, `JobInstance`.`progress_note` AS `JobInstance_progress_note`, `JobInstance`.`progress_at` AS `JobInstance_progress_at`, `JobInstance`.`heartbeat_timeout_ms` AS `JobInstance_heartbeat_timeout_ms`, `JobInstance`.`priority` AS `JobInstance_priority`, `JobInstance`.`timeout_mode` AS `JobInstance_timeout_mode`, `JobInstance`.`due_at` AS `JobInstance_due_at`, `JobInstance`.`created_at` AS `JobInstance_created_at`, `JobInstance`.`updated_at` AS `JobInstance_updated_at`, `JobInstance`.`dispatched_at` AS `JobInstance_dispatched_at`, `JobInstance`.`started_at` AS `JobInstance_started_at`, `JobInstance`.`finished_at` AS `JobInstance_finished_at`
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`id` IN (?, ?)));
-- params: ["00000000-0000-7000-8000-000000000001","00000000-0000-7000-8000-000000000003"]
-- [sqlite]
SELECT "JobInstance"."id" AS "JobInstance_id", "JobInstance"."namespace" AS "JobInstance_namespace", "JobInstance"."app_id" AS "JobInstance_app_id", "JobInstance"."request_id" AS "JobInstance_request_id", "JobInstance"."request_hash" AS "JobInstance_request_hash", "JobInstance"."job_id" AS "JobInstance_job_id", "JobInstance"."job_code" AS "JobInstance_job_code", "JobInstance"."handler" AS "JobInstance_handler", "JobInstance"."fire_time" AS "JobInstance_fire_time", "JobInstance"."shard_index" AS "JobInstance_shard_index", "JobInstance"."shard_total" AS "JobInstance_shard_total", "JobInstance"."trigger_source" AS "JobInstance_trigger_source", "JobInstance"."status" AS "JobInstance_status", "JobInstance"."staged" AS "JobInstance_staged", "JobInstance"."attempt" AS "JobInstance_attempt", "JobInstance"."max_attempts" AS "JobInstance_max_attempts", "JobInstance"."retry_backoff_ms" AS "JobInstance_retry_backoff_ms", "JobInstance"."retry_backoff_kind" AS "JobInstance_retry_backoff_kind", "JobInstance"."timeout_ms" AS "JobInstance_timeout_ms", "JobInstance"."max_concurrency" AS "JobInstance_max_concurrency", "JobInstance"."routing_strategy" AS "JobInstance_routing_strategy", "JobInstance"."routing_key" AS "JobInstance_routing_key", "JobInstance"."node_id" AS "JobInstance_node_id", "JobInstance"."lease_until" AS "JobInstance_lease_until", "JobInstance"."fencing_token" AS "JobInstance_fencing_token", "JobInstance"."params" AS "JobInstance_params", "JobInstance"."result" AS "JobInstance_result", "JobInstance"."error" AS "JobInstance_error", "JobInstance"."trace_id" AS "JobInstance_trace_id", "JobInstance"."traceparent" AS "JobInstance_traceparent", "JobInstance"."callback_url" AS "JobInstance_callback_url", "JobInstance"."task_name" AS "JobInstance_task_name", "JobInstance"."checkpoint_attempt" AS "JobInstance_checkpoint_attempt", "JobInstance"."checkpoint_token" AS "JobInstance_checkpoint_token", "JobInstance"."checkpoint_at" AS "JobInstance_checkpoint_at", "JobInstance"."progress" AS "JobInstance_progress", "JobInstance"."progress_note" AS "JobInstance_progress_note", "JobInstance"."progress_at" AS "JobInstance_progress_at", "JobInstance"."heartbeat_timeout_ms" AS "JobInstance_heartbeat_timeout_ms", "JobInstance"."priority" AS "JobInstance_priority", "JobInstance"."timeout_mode" AS "JobInstance_timeout_mode", "JobInstance"."due_at" AS "JobInstance_due_at", "JobInstance"."created_at" AS "JobInstance_created_at", "JobInstance"."updated_at" AS "JobInstance_updated_at", "JobInstance"."dispatched_at" AS "JobInstance_dispatched_at", "JobInstance"."started_at" AS "JobInstance_started_at", "JobInstance"."finished_at" AS "JobInstance_finished_at"
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."id" IN (?, ?)));
-- params: ["00000000-0000-7000-8000-000000000001","00000000-0000-7000-8000-000000000003"]

-- InstanceReads.findMany
-- [mysql]
SELECT `id`, `namespace`, `app_id`, `request_id`, `request_hash`, `job_id`, `job_code`, `handler`, `fire_time`, `shard_index`, `shard_total`, `trigger_source`, `status`, `staged`, `attempt`, `max_attempts`, `retry_backoff_ms`, `retry_backoff_kind`, `timeout_ms`, `max_concurrency`, `routing_strategy`, `routing_key`, `node_id`, `lease_until`, `fencing_token`, `params`, `result`, `error`, `trace_id`, `traceparent`, `callback_url`, `task_name`, `checkpoint_attempt`, `checkpoint_token`, `checkpoint_at`, `progress`, `progress_note`, `progress_at`, `heartbeat_timeout_ms`, `priority`, `timeout_mode`, `due_at`, `created_at`, `updated_at`, `dispatched_at`, `started_at`, `finished_at`
  FROM job_instance
  WHERE id IN (?, ?);
-- params: ["00000000-0000-7000-8000-000000000001","00000000-0000-7000-8000-000000000003"]
-- [sqlite]
SELECT "id", "namespace", "app_id", "request_id", "request_hash", "job_id", "job_code", "handler", "fire_time", "shard_index", "shard_total", "trigger_source", "status", "staged", "attempt", "max_attempts", "retry_backoff_ms", "retry_backoff_kind", "timeout_ms", "max_concurrency", "routing_strategy", "routing_key", "node_id", "lease_until", "fencing_token", "params", "result", "error", "trace_id", "traceparent", "callback_url", "task_name", "checkpoint_attempt", "checkpoint_token", "checkpoint_at", "progress", "progress_note", "progress_at", "heartbeat_timeout_ms", "priority", "timeout_mode", "due_at", "created_at", "updated_at", "dispatched_at", "started_at", "finished_at"
  FROM job_instance
  WHERE id IN (?, ?);
-- params: ["00000000-0000-7000-8000-000000000001","00000000-0000-7000-8000-000000000003"]

-- InstanceReads.findOnNode
-- [mysql]
SELECT `JobInstance`.`id` AS `JobInstance_id`, `JobInstance`.`namespace` AS `JobInstance_namespace`, `JobInstance`.`app_id` AS `JobInstance_app_id`, `JobInstance`.`request_id` AS `JobInstance_request_id`, `JobInstance`.`request_hash` AS `JobInstance_request_hash`, `JobInstance`.`job_id` AS `JobInstance_job_id`, `JobInstance`.`job_code` AS `JobInstance_job_code`, `JobInstance`.`handler` AS `JobInstance_handler`, `JobInstance`.`fire_time` AS `JobInstance_fire_time`, `JobInstance`.`shard_index` AS `JobInstance_shard_index`, `JobInstance`.`shard_total` AS `JobInstance_shard_total`, `JobInstance`.`trigger_source` AS `JobInstance_trigger_source`, `JobInstance`.`status` AS `JobInstance_status`, `JobInstance`.`staged` AS `JobInstance_staged`, `JobInstance`.`attempt` AS `JobInstance_attempt`, `JobInstance`.`max_attempts` AS `JobInstance_max_attempts`, `JobInstance`.`retry_backoff_ms` AS `JobInstance_retry_backoff_ms`, `JobInstance`.`retry_backoff_kind` AS `JobInstance_retry_backoff_kind`, `JobInstance`.`timeout_ms` AS `JobInstance_timeout_ms`, `JobInstance`.`max_concurrency` AS `JobInstance_max_concurrency`, `JobInstance`.`routing_strategy` AS `JobInstance_routing_strategy`, `JobInstance`.`routing_key` AS `JobInstance_routing_key`, `JobInstance`.`node_id` AS `JobInstance_node_id`, `JobInstance`.`lease_until` AS `JobInstance_lease_until`, `JobInstance`.`fencing_token` AS `JobInstance_fencing_token`, `JobInstance`.`params` AS `JobInstance_params`, `JobInstance`.`result` AS `JobInstance_result`, `JobInstance`.`error` AS `JobInstance_error`, `JobInstance`.`trace_id` AS `JobInstance_trace_id`, `JobInstance`.`traceparent` AS `JobInstance_traceparent`, `JobInstance`.`callback_url` AS `JobInstance_callback_url`, `JobInstance`.`task_name` AS `JobInstance_task_name`, `JobInstance`.`checkpoint_attempt` AS `JobInstance_checkpoint_attempt`, `JobInstance`.`checkpoint_token` AS `JobInstance_checkpoint_token`, `JobInstance`.`checkpoint_at` AS `JobInstance_checkpoint_at`, `JobInstance`.`progress` AS `JobInstance_progress`, `JobInstance`.`progress_note` AS `JobInstance_progress_note`, `JobInstance`.`progress_at` AS `JobInstance_progress_at`, `JobInstance`.`heartbeat_timeout_ms` AS `JobInstance_heartbeat_timeout_ms`, `JobInstance`.`priority` AS `JobInstance_priority`, `JobInstance`.`timeout_mode` AS `JobInstance_timeout_mode`, `JobInstance`.`due_at` AS `JobInstance_due_at`, `JobInstance`.`created_at` AS `JobInstance_created_at`, `JobInstance`.`updated_at` AS `JobInstance_updated_at`, `JobInstance`.`dispatched_at` AS `JobInstance_dispatched_at`, `JobInstance`.`started_at` AS `JobInstance_started_at`, `JobInstance`.`finished_at` AS `JobInstance_finished_at`
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`node_id` = ?) AND (`JobInstance`.`status` IN (?, ?)))
  LIMIT 100;
-- params: ["node-1","DISPATCHED","RUNNING"]
-- [sqlite]
SELECT "JobInstance"."id" AS "JobInstance_id", "JobInstance"."namespace" AS "JobInstance_namespace", "JobInstance"."app_id" AS "JobInstance_app_id", "JobInstance"."request_id" AS "JobInstance_request_id", "JobInstance"."request_hash" AS "JobInstance_request_hash", "JobInstance"."job_id" AS "JobInstance_job_id", "JobInstance"."job_code" AS "JobInstance_job_code", "JobInstance"."handler" AS "JobInstance_handler", "JobInstance"."fire_time" AS "JobInstance_fire_time", "JobInstance"."shard_index" AS "JobInstance_shard_index", "JobInstance"."shard_total" AS "JobInstance_shard_total", "JobInstance"."trigger_source" AS "JobInstance_trigger_source", "JobInstance"."status" AS "JobInstance_status", "JobInstance"."staged" AS "JobInstance_staged", "JobInstance"."attempt" AS "JobInstance_attempt", "JobInstance"."max_attempts" AS "JobInstance_max_attempts", "JobInstance"."retry_backoff_ms" AS "JobInstance_retry_backoff_ms", "JobInstance"."retry_backoff_kind" AS "JobInstance_retry_backoff_kind", "JobInstance"."timeout_ms" AS "JobInstance_timeout_ms", "JobInstance"."max_concurrency" AS "JobInstance_max_concurrency", "JobInstance"."routing_strategy" AS "JobInstance_routing_strategy", "JobInstance"."routing_key" AS "JobInstance_routing_key", "JobInstance"."node_id" AS "JobInstance_node_id", "JobInstance"."lease_until" AS "JobInstance_lease_until", "JobInstance"."fencing_token" AS "JobInstance_fencing_token", "JobInstance"."params" AS "JobInstance_params", "JobInstance"."result" AS "JobInstance_result", "JobInstance"."error" AS "JobInstance_error", "JobInstance"."trace_id" AS "JobInstance_trace_id", "JobInstance"."traceparent" AS "JobInstance_traceparent", "JobInstance"."callback_url" AS "JobInstance_callback_url", "JobInstance"."task_name" AS "JobInstance_task_name", "JobInstance"."checkpoint_attempt" AS "JobInstance_checkpoint_attempt", "JobInstance"."checkpoint_token" AS "JobInstance_checkpoint_token", "JobInstance"."checkpoint_at" AS "JobInstance_checkpoint_at", "JobInstance"."progress" AS "JobInstance_progress", "JobInstance"."progress_note" AS "JobInstance_progress_note", "JobInstance"."progress_at" AS "JobInstance_progress_at", "JobInstance"."heartbeat_timeout_ms" AS "JobInstance_heartbeat_timeout_ms", "JobInstance"."priority" AS "JobInstance_priority", "JobInstance"."timeout_mode" AS "JobInstance_timeout_mode", "JobInstance"."due_at" AS "JobInstance_due_at", "JobInstance"."created_at" AS "JobInstance_created_at", "JobInstance"."updated_at" AS "JobInstance_updated_at", "JobInstance"."dispatched_at" AS "JobInstance_dispatched_at", "JobInstance"."started_at" AS "JobInstance_started_at", "JobInstance"."finished_at" AS "JobInstance_finished_at"
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."node_id" = ?) AND ("JobInstance"."status" IN (?, ?)))
  LIMIT 100;
-- params: ["node-1","DISPATCHED","RUNNING"]

-- InstanceReads.countOnNode
SELECT COUNT(*) AS n
  FROM job_instance
  WHERE node_id = ? AND status IN (?);
-- params: ["node-1","RUNNING"]

-- InstanceReads.listByJob
-- [mysql]
SELECT `i`.`id` AS `i_id`, `i`.`namespace` AS `i_namespace`, `i`.`app_id` AS `i_app_id`, `i`.`request_id` AS `i_request_id`, `i`.`request_hash` AS `i_request_hash`, `i`.`job_id` AS `i_job_id`, `i`.`job_code` AS `i_job_code`, `i`.`handler` AS `i_handler`, `i`.`fire_time` AS `i_fire_time`, `i`.`shard_index` AS `i_shard_index`, `i`.`shard_total` AS `i_shard_total`, `i`.`trigger_source` AS `i_trigger_source`, `i`.`status` AS `i_status`, `i`.`staged` AS `i_staged`, `i`.`attempt` AS `i_attempt`, `i`.`max_attempts` AS `i_max_attempts`, `i`.`retry_backoff_ms` AS `i_retry_backoff_ms`, `i`.`retry_backoff_kind` AS `i_retry_backoff_kind`, `i`.`timeout_ms` AS `i_timeout_ms`, `i`.`max_concurrency` AS `i_max_concurrency`, `i`.`routing_strategy` AS `i_routing_strategy`, `i`.`routing_key` AS `i_routing_key`, `i`.`node_id` AS `i_node_id`, `i`.`lease_until` AS `i_lease_until`, `i`.`fencing_token` AS `i_fencing_token`, `i`.`params` AS `i_params`, `i`.`result` AS `i_result`, `i`.`error` AS `i_error`, `i`.`trace_id` AS `i_trace_id`, `i`.`traceparent` AS `i_traceparent`, `i`.`callback_url` AS `i_callback_url`, `i`.`task_name` AS `i_task_name`, `i`.`checkpoint_attempt` AS `i_checkpoint_attempt`, `i`.`checkpoint_token` AS `i_checkpoint_token`, `i`.`checkpoint_at` AS `i_checkpoint_at`, `i`.`progress` AS `i_progress`, `i`.`progress_note` AS `i_progress_note`, `i`.`progress_at` AS `i_progress_at`, `i`.`heartbeat_timeout_ms` AS `i_heartbeat_timeout_ms`, `i`.`priority` AS `i_priority`, `i`.`timeout_mode` AS `i_timeout_mode`, `i`.`due_at` AS `i_due_at`, `i`.`created_at` AS `i_created_at`, `i`.`updated_at` AS `i_updated_at`, `i`.`dispatched_at` AS `i_dispatched_at`, `i`.`started_at` AS `i_started_at`, `i`.`finished_at` AS `i_finished_at`
  FROM `job_instance` `i`
  WHERE `i`.`job_id` = ? AND (`i`.`fire_time` < ? OR (`i`.`fire_time` = ? AND `i`.`shard_index` < ?))
  ORDER BY `i`.`fire_time` DESC, `i`.`shard_index` DESC
  LIMIT 20 OFFSET 0;
-- params: ["00000000-0000-7000-8000-00000000000j",1800000000000,1800000000000,0]
-- [sqlite]
SELECT "i"."id" AS "i_id", "i"."namespace" AS "i_namespace", "i"."app_id" AS "i_app_id", "i"."request_id" AS "i_request_id", "i"."request_hash" AS "i_request_hash", "i"."job_id" AS "i_job_id", "i"."job_code" AS "i_job_code", "i"."handler" AS "i_handler", "i"."fire_time" AS "i_fire_time", "i"."shard_index" AS "i_shard_index", "i"."shard_total" AS "i_shard_total", "i"."trigger_source" AS "i_trigger_source", "i"."status" AS "i_status", "i"."staged" AS "i_staged", "i"."attempt" AS "i_attempt", "i"."max_attempts" AS "i_max_attempts", "i"."retry_backoff_ms" AS "i_retry_backoff_ms", "i"."retry_backoff_kind" AS "i_retry_backoff_kind", "i"."timeout_ms" AS "i_timeout_ms", "i"."max_concurrency" AS "i_max_concurrency", "i"."routing_strategy" AS "i_routing_strategy", "i"."routing_key" AS "i_routing_key", "i"."node_id" AS "i_node_id", "i"."lease_until" AS "i_lease_until", "i"."fencing_token" AS "i_fencing_token", "i"."params" AS "i_params", "i"."result" AS "i_result", "i"."error" AS "i_error", "i"."trace_id" AS "i_trace_id", "i"."traceparent" AS "i_traceparent", "i"."callback_url" AS "i_callback_url", "i"."task_name" AS "i_task_name", "i"."checkpoint_attempt" AS "i_checkpoint_attempt", "i"."checkpoint_token" AS "i_checkpoint_token", "i"."checkpoint_at" AS "i_checkpoint_at", "i"."progress" AS "i_progress", "i"."progress_note" AS "i_progress_note", "i"."progress_at" AS "i_progress_at", "i"."heartbeat_timeout_ms" AS "i_heartbeat_timeout_ms", "i"."priority" AS "i_priority", "i"."timeout_mode" AS "i_timeout_mode", "i"."due_at" AS "i_due_at", "i"."created_at" AS "i_created_at", "i"."updated_at" AS "i_updated_at", "i"."dispatched_at" AS "i_dispatched_at", "i"."started_at" AS "i_started_at", "i"."finished_at" AS "i_finished_at"
  FROM "job_instance" "i"
  WHERE "i"."job_id" = ? AND ("i"."fire_time" < 1800000000000 OR ("i"."fire_time" = 1800000000000 AND "i"."shard_index" < 0))
  ORDER BY "i"."fire_time" DESC, "i"."shard_index" DESC
  LIMIT 20 OFFSET 0;
-- params: ["00000000-0000-7000-8000-00000000000j"]

-- InstanceReads.countByJob
-- [mysql]
SELECT COUNT(1) AS `cnt`
  FROM `job_instance` `JobInstance`
  WHERE ((`JobInstance`.`job_id` = ?));
-- params: ["00000000-0000-7000-8000-00000000000j"]
-- [sqlite]
SELECT COUNT(1) AS "cnt"
  FROM "job_instance" "JobInstance"
  WHERE (("JobInstance"."job_id" = ?));
-- params: ["00000000-0000-7000-8000-00000000000j"]

-- InstanceReads.countUnfinishedOfApp
SELECT COUNT(*) AS n
  FROM job_instance
  WHERE app_id = ? AND status IN (?, ?, ?, ?);
-- params: ["app-1","PENDING","WAITING","DISPATCHED","RUNNING"]

-- InstanceReads.unfinishedOfAppByNode
SELECT handler, node_id, status, COUNT(*) AS n
  FROM job_instance
  WHERE app_id = ? AND status IN (?, ?, ?, ?) AND namespace = ?
  GROUP BY handler, node_id, status;
-- params: ["app-1","PENDING","WAITING","DISPATCHED","RUNNING","tw-sql-snapshot"]

-- InstanceReads.lastRunsOf
SELECT i.id, i.job_id, i.status, i.fire_time, i.started_at, i.finished_at
  FROM (SELECT (SELECT x.id
  FROM job_instance x
  WHERE x.job_id = j.id
  ORDER BY x.fire_time DESC, x.shard_index DESC
  LIMIT 1) AS last_id
  FROM job_definition j
  WHERE j.id IN (?)) l JOIN job_instance i ON i.id = l.last_id;
-- params: ["00000000-0000-7000-8000-00000000000j"]

-- InstanceReads.listTasks: one app's, every filter, after a cursor
-- [mysql]
SELECT `i`.`id` AS `i_id`, `i`.`namespace` AS `i_namespace`, `i`.`app_id` AS `i_app_id`, `i`.`request_id` AS `i_request_id`, `i`.`request_hash` AS `i_request_hash`, `i`.`job_id` AS `i_job_id`, `i`.`job_code` AS `i_job_code`, `i`.`handler` AS `i_handler`, `i`.`fire_time` AS `i_fire_time`, `i`.`shard_index` AS `i_shard_index`, `i`.`shard_total` AS `i_shard_total`, `i`.`trigger_source` AS `i_trigger_source`, `i`.`status` AS `i_status`, `i`.`staged` AS `i_staged`, `i`.`attempt` AS `i_attempt`, `i`.`max_attempts` AS `i_max_attempts`, `i`.`retry_backoff_ms` AS `i_retry_backoff_ms`, `i`.`retry_backoff_kind` AS `i_retry_backoff_kind`, `i`.`timeout_ms` AS `i_timeout_ms`, `i`.`max_concurrency` AS `i_max_concurrency`, `i`.`routing_strategy` AS `i_routing_strategy`, `i`.`routing_key` AS `i_routing_key`, `i`.`node_id` AS `i_node_id`, `i`.`lease_until` AS `i_lease_until`, `i`.`fencing_token` AS `i_fencing_token`, `i`.`params` AS `i_params`, `i`.`result` AS `i_result`, `i`.`error` AS `i_error`, `i`.`trace_id` AS `i_trace_id`, `i`.`traceparent` AS `i_traceparent`, `i`.`callback_url` AS `i_callback_url`, `i`.`task_name` AS `i_task_name`, `i`.`checkpoint_attempt` AS `i_checkpoint_attempt`, `i`.`checkpoint_token` AS `i_checkpoint_token`, `i`.`checkpoint_at` AS `i_checkpoint_at`, `i`.`progress` AS `i_progress`, `i`.`progress_note` AS `i_progress_note`, `i`.`progress_at` AS `i_progress_at`, `i`.`heartbeat_timeout_ms` AS `i_heartbeat_timeout_ms`, `i`.`priority` AS `i_priority`, `i`.`timeout_mode` AS `i_timeout_mode`, `i`.`due_at` AS `i_due_at`, `i`.`created_at` AS `i_created_at`, `i`.`updated_at` AS `i_updated_at`, `i`.`dispatched_at` AS `i_dispatched_at`, `i`.`started_at` AS `i_started_at`, `i`.`finished_at` AS `i_finished_at`
  FROM `job_instance` `i`
  WHERE `i`.`namespace` = ? AND `i`.`job_id` IS NULL AND `i`.`app_id` = ? AND `i`.`status` = ? AND `i`.`handler` = ? AND `i`.`created_at` >= ? AND `i`.`created_at` <= ? AND (`i`.`created_at` < ? OR (`i`.`created_at` = ? AND `i`.`id` < ?))
  ORDER BY `i`.`created_at` DESC, `i`.`id` DESC
  LIMIT 20 OFFSET 0;
-- params: ["tw-sql-snapshot","app-1","PENDING","h",1799999999999,1800000000000,1800000000000,1800000000000,"00000000-0000-7000-8000-000000000009"]
-- [sqlite]
SELECT "i"."id" AS "i_id", "i"."namespace" AS "i_namespace", "i"."app_id" AS "i_app_id", "i"."request_id" AS "i_request_id", "i"."request_hash" AS "i_request_hash", "i"."job_id" AS "i_job_id", "i"."job_code" AS "i_job_code", "i"."handler" AS "i_handler", "i"."fire_time" AS "i_fire_time", "i"."shard_index" AS "i_shard_index", "i"."shard_total" AS "i_shard_total", "i"."trigger_source" AS "i_trigger_source", "i"."status" AS "i_status", "i"."staged" AS "i_staged", "i"."attempt" AS "i_attempt", "i"."max_attempts" AS "i_max_attempts", "i"."retry_backoff_ms" AS "i_retry_backoff_ms", "i"."retry_backoff_kind" AS "i_retry_backoff_kind", "i"."timeout_ms" AS "i_timeout_ms", "i"."max_concurrency" AS "i_max_concurrency", "i"."routing_strategy" AS "i_routing_strategy", "i"."routing_key" AS "i_routing_key", "i"."node_id" AS "i_node_id", "i"."lease_until" AS "i_lease_until", "i"."fencing_token" AS "i_fencing_token", "i"."params" AS "i_params", "i"."result" AS "i_result", "i"."error" AS "i_error", "i"."trace_id" AS "i_trace_id", "i"."traceparent" AS "i_traceparent", "i"."callback_url" AS "i_callback_url", "i"."task_name" AS "i_task_name", "i"."checkpoint_attempt" AS "i_checkpoint_attempt", "i"."checkpoint_token" AS "i_checkpoint_token", "i"."checkpoint_at" AS "i_checkpoint_at", "i"."progress" AS "i_progress", "i"."progress_note" AS "i_progress_note", "i"."progress_at" AS "i_progress_at", "i"."heartbeat_timeout_ms" AS "i_heartbeat_timeout_ms", "i"."priority" AS "i_priority", "i"."timeout_mode" AS "i_timeout_mode", "i"."due_at" AS "i_due_at", "i"."created_at" AS "i_created_at", "i"."updated_at" AS "i_updated_at", "i"."dispatched_at" AS "i_dispatched_at", "i"."started_at" AS "i_started_at", "i"."finished_at" AS "i_finished_at"
  FROM "job_instance" "i"
  WHERE "i"."namespace" = ? AND "i"."job_id" IS NULL AND "i"."app_id" = ? AND "i"."status" = ? AND "i"."handler" = ? AND "i"."created_at" >= 1799999999999 AND "i"."created_at" <= 1800000000000 AND ("i"."created_at" < 1800000000000 OR ("i"."created_at" = 1800000000000 AND "i"."id" < ?))
  ORDER BY "i"."created_at" DESC, "i"."id" DESC
  LIMIT 20 OFFSET 0;
-- params: ["tw-sql-snapshot","app-1","PENDING","h","00000000-0000-7000-8000-000000000009"]

-- InstanceReads.listTasks: every app's of the namespace
-- [mysql]
SELECT `i`.`id` AS `i_id`, `i`.`namespace` AS `i_namespace`, `i`.`app_id` AS `i_app_id`, `i`.`request_id` AS `i_request_id`, `i`.`request_hash` AS `i_request_hash`, `i`.`job_id` AS `i_job_id`, `i`.`job_code` AS `i_job_code`, `i`.`handler` AS `i_handler`, `i`.`fire_time` AS `i_fire_time`, `i`.`shard_index` AS `i_shard_index`, `i`.`shard_total` AS `i_shard_total`, `i`.`trigger_source` AS `i_trigger_source`, `i`.`status` AS `i_status`, `i`.`staged` AS `i_staged`, `i`.`attempt` AS `i_attempt`, `i`.`max_attempts` AS `i_max_attempts`, `i`.`retry_backoff_ms` AS `i_retry_backoff_ms`, `i`.`retry_backoff_kind` AS `i_retry_backoff_kind`, `i`.`timeout_ms` AS `i_timeout_ms`, `i`.`max_concurrency` AS `i_max_concurrency`, `i`.`routing_strategy` AS `i_routing_strategy`, `i`.`routing_key` AS `i_routing_key`, `i`.`node_id` AS `i_node_id`, `i`.`lease_until` AS `i_lease_until`, `i`.`fencing_token` AS `i_fencing_token`, `i`.`params` AS `i_params`, `i`.`result` AS `i_result`, `i`.`error` AS `i_error`, `i`.`trace_id` AS `i_trace_id`, `i`.`traceparent` AS `i_traceparent`, `i`.`callback_url` AS `i_callback_url`, `i`.`task_name` AS `i_task_name`, `i`.`checkpoint_attempt` AS `i_checkpoint_attempt`, `i`.`checkpoint_token` AS `i_checkpoint_token`, `i`.`checkpoint_at` AS `i_checkpoint_at`, `i`.`progress` AS `i_progress`, `i`.`progress_note` AS `i_progress_note`, `i`.`progress_at` AS `i_progress_at`, `i`.`heartbeat_timeout_ms` AS `i_heartbeat_timeout_ms`, `i`.`priority` AS `i_priority`, `i`.`timeout_mode` AS `i_timeout_mode`, `i`.`due_at` AS `i_due_at`, `i`.`created_at` AS `i_created_at`, `i`.`updated_at` AS `i_updated_at`, `i`.`dispatched_at` AS `i_dispatched_at`, `i`.`started_at` AS `i_started_at`, `i`.`finished_at` AS `i_finished_at`
  FROM `job_instance` `i`
  WHERE `i`.`namespace` = ? AND `i`.`job_id` IS NULL
  ORDER BY `i`.`created_at` DESC, `i`.`id` DESC
  LIMIT 20 OFFSET 20;
-- params: ["tw-sql-snapshot"]
-- [sqlite]
SELECT "i"."id" AS "i_id", "i"."namespace" AS "i_namespace", "i"."app_id" AS "i_app_id", "i"."request_id" AS "i_request_id", "i"."request_hash" AS "i_request_hash", "i"."job_id" AS "i_job_id", "i"."job_code" AS "i_job_code", "i"."handler" AS "i_handler", "i"."fire_time" AS "i_fire_time", "i"."shard_index" AS "i_shard_index", "i"."shard_total" AS "i_shard_total", "i"."trigger_source" AS "i_trigger_source", "i"."status" AS "i_status", "i"."staged" AS "i_staged", "i"."attempt" AS "i_attempt", "i"."max_attempts" AS "i_max_attempts", "i"."retry_backoff_ms" AS "i_retry_backoff_ms", "i"."retry_backoff_kind" AS "i_retry_backoff_kind", "i"."timeout_ms" AS "i_timeout_ms", "i"."max_concurrency" AS "i_max_concurrency", "i"."routing_strategy" AS "i_routing_strategy", "i"."routing_key" AS "i_routing_key", "i"."node_id" AS "i_node_id", "i"."lease_until" AS "i_lease_until", "i"."fencing_token" AS "i_fencing_token", "i"."params" AS "i_params", "i"."result" AS "i_result", "i"."error" AS "i_error", "i"."trace_id" AS "i_trace_id", "i"."traceparent" AS "i_traceparent", "i"."callback_url" AS "i_callback_url", "i"."task_name" AS "i_task_name", "i"."checkpoint_attempt" AS "i_checkpoint_attempt", "i"."checkpoint_token" AS "i_checkpoint_token", "i"."checkpoint_at" AS "i_checkpoint_at", "i"."progress" AS "i_progress", "i"."progress_note" AS "i_progress_note", "i"."progress_at" AS "i_progress_at", "i"."heartbeat_timeout_ms" AS "i_heartbeat_timeout_ms", "i"."priority" AS "i_priority", "i"."timeout_mode" AS "i_timeout_mode", "i"."due_at" AS "i_due_at", "i"."created_at" AS "i_created_at", "i"."updated_at" AS "i_updated_at", "i"."dispatched_at" AS "i_dispatched_at", "i"."started_at" AS "i_started_at", "i"."finished_at" AS "i_finished_at"
  FROM "job_instance" "i"
  WHERE "i"."namespace" = ? AND "i"."job_id" IS NULL
  ORDER BY "i"."created_at" DESC, "i"."id" DESC
  LIMIT 20 OFFSET 20;
-- params: ["tw-sql-snapshot"]

-- InstanceReads.countTasks
-- [mysql]
SELECT COUNT(1) AS `cnt`
  FROM `job_instance` `i`
  WHERE `i`.`namespace` = ? AND `i`.`job_id` IS NULL AND `i`.`app_id` = ? AND `i`.`status` = ?;
-- params: ["tw-sql-snapshot","app-1","SUCCESS"]
-- [sqlite]
SELECT COUNT(1) AS "cnt"
  FROM "job_instance" "i"
  WHERE "i"."namespace" = ? AND "i"."job_id" IS NULL AND "i"."app_id" = ? AND "i"."status" = ?;
-- params: ["tw-sql-snapshot","app-1","SUCCESS"]

-- InstanceReads.finishedByHour
SELECT finished_at - (finished_at % 3600000) AS hour, status, COUNT(*) AS n
  FROM job_instance
  WHERE finished_at >= ? AND finished_at <= ? AND status IN (?, ?, ?, ?) AND namespace = ? AND app_id = ?
  GROUP BY finished_at - (finished_at % 3600000), status;
-- params: [1799913600000,1800000000000,"SUCCESS","FAILED","TIMEOUT","CANCELLED","tw-sql-snapshot","app-1"]

-- InstanceReads.countByStatus: of the namespace
SELECT status, COUNT(*) AS n
  FROM job_instance
  WHERE status IN (?) AND namespace = ?
  GROUP BY status;
-- params: ["RUNNING","tw-sql-snapshot"]

-- InstanceReads.runningNow
SELECT id, request_id, app_id, job_id, job_code, handler, node_id, attempt, started_at, progress, progress_note, progress_at
  FROM job_instance
  WHERE status = ? AND namespace = ? AND app_id = ?
  ORDER BY started_at DESC, id DESC
  LIMIT ?;
-- params: ["RUNNING","tw-sql-snapshot","app-1",20]
