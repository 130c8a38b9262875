/* eslint-disable */
// GENERATED from openapi/openapi.json by openapi-typescript (scripts/openapi-types.mjs): do not edit by hand.
// Regenerate with `npm run openapi:sync`; src/client/openapi-types.spec.ts fails when this file drifts from the spec.
export interface paths {
  '/health/live': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Liveness: the process answers (no dependency is checked; unsigned) */
    get: operations['HealthController_live'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health/ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Readiness: the database and, clustered, Redis answer (unsigned) */
    get: operations['HealthController_ready'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/tasks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Recent tasks, newest first (paged by cursor, or offset, and limit)
     * @description The calling app's tasks (instances of no job) in this namespace; an admin's list holds every app's (or those of ?appId=). Every filter given must hold; from/to bound createdAt and are inclusive. Items as GET of one task without its attempts. The app's rows are read from the (app_id, status) index and sorted by createdAt: the cost grows with the app's retained instances (retention), not with the page.
     */
    get: operations['TasksController_recent'];
    put?: never;
    /**
     * Submit a task
     * @description Answers at once with a requestId; the task runs on an executor that advertises its handler. Resending the same requestId with the same body answers the existing task as it is now, still a 202: its status (e.g. SUCCESS) and, once it has ended, its result and error (headers Idempotency-Replayed: true, as keyed routes answer, and the older Idempotent-Replayed: true, deprecated); with another body it is a 409. The body may also be in the design source's shape: taskCode (the handler), taskName, triggerType 'delay' (with delay, ms) or 'immediate', executeParams (the params), callbackUrl; the same checks and bounds, stored and shown in the canonical shape plus taskName (docs/api.md "The design source's shape"). One body is one shape. A 'shell' task needs the shell scope (403, before anything is written); clustered, it is a 400 naming handler while no live executor advertises shell.
     */
    post: operations['TasksController_submit'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/tasks/batch': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Submit up to 1000 tasks at once
     * @description Each task is a POST /api/tasks body with its own requestId and the same idempotency: results[i] answers tasks[i] as POST /api/tasks would (`replayed: true` when the task existed already: then its status now, result and error once ended) or, when its requestId was used with another body, a per-item `error` (status 409); the request itself is still a 202. A requestId repeated inside the batch with the same body gets the same answer, with another body a 409 item. One invalid task, an empty list or more than 1000 tasks refuse the whole batch with a 400 naming the field (e.g. `tasks[3].handler`). The body may be at most 2 MiB. A shell task refuses the whole batch with a 403 unless the caller has the shell scope; a batch that would take the app past its cap on unfinished tasks is refused whole with a 429.
     */
    post: operations['TasksController_submitBatch'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/tasks/{requestId}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a task
     * @description PENDING, WAITING, DISPATCHED or RUNNING → CANCELLED. A running handler sees its AbortSignal fire at once (a stop signal to its executor; its next heartbeat if that is lost); its late result is not recorded. Under maxConcurrency the next waiting instance starts once the handler stopped. A task that already ended is returned unchanged.
     */
    post: operations['TasksController_cancel'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/tasks/{requestId}/callback/redeliver': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send the task's callback again
     * @description Sends the callback delivery again from the start: status PENDING, attempts 0, due now, the same deliveryId (X-Tickwheel-Delivery), whatever its state (DELIVERED and CALLBACK_FAILED included); a try in flight loses its claim and records nothing. Answers the delivery as it is now. Audit-logged (CALLBACK_REDELIVER). The receiver gets the same signed body (docs/callbacks.md "What is sent", "Verifying").
     */
    post: operations['TasksController_redeliver'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/tasks/{requestId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Task status
     * @description Status, attempt, node, result or error, and timestamps of one of your tasks, with every attempt so far (node, fencing token, status, times, error), its callbackUrl and its callback delivery (`callback`: status PENDING, RETRYING, DELIVERED or CALLBACK_FAILED, attempts, last answer; null until it is final).
     */
    get: operations['TasksController_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/tasks/{requestId}/logs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The task's handler log lines, oldest first (paged)
     * @description What the handler logged with ctx.log, every attempt, each line with its attempt, node, time and level, in the order logged; a running attempt's lines show up within about a second. Kept per attempt up to HANDLER_LOG_MAX_LINES lines and HANDLER_LOG_MAX_BYTES bytes (the oldest dropped, a marker line says how many), and for RETENTION_LOGS_MS. Paged by `after` (the last id read) and `limit` (1-1000, default 200).
     */
    get: operations['TasksController_logs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/jobs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List job definitions (by code, then owner)
     * @description The calling app's jobs; an admin's list holds every app's jobs of the namespace (or those of ?appId=). `q` keeps those whose code, description or handler contains it (any case), `enabled` the enabled or paused ones. Each item as GET of one job, with `lastRun` (one read for the page). An app's page is read in code order from the (namespace, app_id, code) index.
     */
    get: operations['JobsController_list'];
    put?: never;
    /**
     * Create a job definition
     * @description The job belongs to the calling app. A 'shell' job needs the shell scope (403); at the app's job cap (maxJobs, MAX_JOBS_PER_APP) the answer is a 409 naming maxJobs; with metrics true while JOB_METRICS_MAX jobs of the namespace have it on, a 409 naming metrics.
     */
    post: operations['JobsController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/jobs/import-crontab': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Import a cron.d file
     * @description Each entry becomes a 'shell' job <fileName>-L<line> of the calling app (which needs the shell scope too); lines that are not jobs are listed with the reason (the first 100, each cut; rejectedTotal counts them all). Jobs are created paused unless enable=true; a line naming a user not in mapUsers (root: the command runs as the app's shell uid, never as that user) stays paused with pausedReason CRONTAB_USER, listed in pausedForUser. Importing the same file again updates the same jobs of the same app; another app's import creates its own. All entries are written in one transaction.
     */
    post: operations['JobsController_importCrontab'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/jobs/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read a job definition with its next 5 fire times and its last run */
    get: operations['JobsController_get'];
    put?: never;
    post?: never;
    /** Delete a job definition (its instances stay as history) */
    delete: operations['JobsController_remove'];
    options?: never;
    head?: never;
    /**
     * Change a job definition (any subset of fields)
     * @description A 403 when the caller lacks the route's scope, or when the job's handler is 'shell' and it lacks the shell scope.
     */
    patch: operations['JobsController_update'];
    trace?: never;
  };
  '/api/jobs/{id}/pause': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Pause the schedule */
    post: operations['JobsController_pause'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/jobs/{id}/resume': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resume the schedule from now
     * @description A 403 when the caller lacks the route's scope, or when the job's handler is 'shell' and it lacks the shell scope.
     */
    post: operations['JobsController_resume'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/jobs/{id}/trigger': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Run the job once now (MANUAL instance), paused or not, under its overlap policy (SKIP answers a CANCELLED instance, QUEUE a WAITING one, REPLACE cancels the unfinished ones)
     * @description The instance runs under the job owner's app id. A 403 when the caller lacks the route's scope, or when the job's handler is 'shell' and it lacks the shell scope. A 429 (code TOO_MANY_UNFINISHED) when the instances would take the job owner's app past its cap on unfinished tasks and fires (maxUnfinishedTasks, MAX_UNFINISHED_TASKS_PER_APP; every shard counts): nothing was written; retry after Retry-After seconds.
     */
    post: operations['JobsController_trigger'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/jobs/{id}/backfill': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Fire the job for every scheduled time of a past range
     * @description One BACKFILL instance per scheduled time in [from, to] (at most 1000 fires and 10,000 instances with the shards; to may not be in the future) that has no instance yet, under the job's overlap policy. Times that already ran are left alone, so repeating a backfill creates nothing new. A 403 when the caller lacks the route's scope, or when the job's handler is 'shell' and it lacks the shell scope. A 429 (code TOO_MANY_UNFINISHED) when the instances would take the job owner's app past its cap on unfinished tasks and fires (maxUnfinishedTasks, MAX_UNFINISHED_TASKS_PER_APP; every shard counts): nothing was written; retry after Retry-After seconds. Every planned fire counts, times that already ran too. With dryRun: true the answer is the same (created: the fires that would be created) and nothing is written.
     */
    post: operations['JobsController_backfill'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/jobs/{id}/instances/{instanceId}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel one instance of the job
     * @description As POST /api/tasks/{requestId}/cancel.
     */
    post: operations['JobsController_cancelInstance'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/jobs/{id}/instances/{instanceId}/callback/redeliver': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send one instance's callback again
     * @description Sends the callback delivery again from the start: status PENDING, attempts 0, due now, the same deliveryId (X-Tickwheel-Delivery), whatever its state (DELIVERED and CALLBACK_FAILED included); a try in flight loses its claim and records nothing. Answers the delivery as it is now. Audit-logged (CALLBACK_REDELIVER). The receiver gets the same signed body (docs/callbacks.md "What is sent", "Verifying").
     */
    post: operations['JobsController_redeliverInstance'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/jobs/{id}/instances/{instanceId}/logs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One instance's handler log lines, oldest first (paged)
     * @description What the handler logged with ctx.log, every attempt, each line with its attempt, node, time and level, in the order logged; a running attempt's lines show up within about a second. Kept per attempt up to HANDLER_LOG_MAX_LINES lines and HANDLER_LOG_MAX_BYTES bytes (the oldest dropped, a marker line says how many), and for RETENTION_LOGS_MS. Paged by `after` (the last id read) and `limit` (1-1000, default 200).
     */
    get: operations['JobsController_instanceLogs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/jobs/{id}/instances/{instanceId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One instance of the job, with its attempts
     * @description As GET /api/tasks/{requestId}, for a fire of the job (its instanceId is in the trigger-now answer and the instance list).
     */
    get: operations['JobsController_instance'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/jobs/{id}/instances': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Instances of the job, newest fire first (paged by cursor, or offset, and limit)
     * @description Answers `{total, items, nextCursor}` (0.2.0; a bare array before). Each item as GET of one instance without its attempts (callbackUrl and callback included). Follow `nextCursor` for the next page.
     */
    get: operations['JobsController_instances'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/nodes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Live executor and app worker nodes
     * @description Handlers, capacity, running tasks, queue depth and last heartbeat of live nodes, as `{total, items}` (0.2.0; a bare array before), all in one page. `appId` is the app owning an app worker (null: a trusted executor). An admin sees every node. Any other caller sees its own app's workers, and only the trusted executors that advertise a handler of its jobs, of its unfinished work or the `handler` it asks for, each with those handlers only, `host` null and its own load (docs/api.md `/api/nodes`).
     */
    get: operations['NodesController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/clients': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List API clients by app id (never their secrets) */
    get: operations['ClientsController_list'];
    put?: never;
    /**
     * Create an API client
     * @description Default scopes: tasks:read, tasks:write, jobs:read, jobs:write, nodes:read. The answer holds the secret: the only time it is shown.
     */
    post: operations['ClientsController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/clients/{appId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read one API client: scopes, limits, enabled (never its secret) */
    get: operations['ClientsController_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Change a client's scopes, limits (null = the setting's default) or enabled
     * @description An admin cannot disable itself or drop its own admin scope. Every process applies the change at once (a clients-changed message); one that misses it, within its 30-s client cache. Disabling pauses the app's jobs (pausedReason CLIENT_DISABLED) and holds its waiting work; enabling resumes them (docs/tenancy.md "Disabled clients").
     */
    patch: operations['ClientsController_update'];
    trace?: never;
  };
  '/api/clients/{appId}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Give the client a new secret (shown once in this answer); the old one stops working
     * @description Every process applies the change at once (a clients-changed message); one that misses it, within its 30-s client cache. Disabling pauses the app's jobs (pausedReason CLIENT_DISABLED) and holds its waiting work; enabling resumes them (docs/tenancy.md "Disabled clients").
     */
    post: operations['ClientsController_rotate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/audit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the namespace's audit log, newest first (paged by cursor, or offset, and limit)
     * @description Who (appId) changed what (action, target), when, with before/after snapshots (secrets redacted). Every filter given must hold; from/to are inclusive.
     */
    get: operations['AuditController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/callbacks/hosts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The app's receiving hosts and their state (up, down)
     * @description Each host:port the calling app's callbacks failed at least once (an admin names another app with ?appId=), with its state: down after CALLBACK_HOST_DOWN_AFTER failed tries in a row, the app's deliveries to it then end CALLBACK_FAILED (HOST_DOWN: …) but one kept for the probe; up again once it answers. See when a host is back, then redeliver what failed meanwhile (POST /api/callbacks/hosts/redeliver).
     */
    get: operations['CallbacksController_hostList'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/callbacks/hosts/redeliver': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send again the app's failed callbacks to a host since a time
     * @description Redelivers at most 10000 of the app's deliveries to host that ended CALLBACK_FAILED at or after since (at most 7 days back), oldest first, each as the single redeliver does: PENDING, attempts 0, due now, the same deliveryId (receivers deduplicate on it). The host is up again for the app (you say it is back; three failed tries take it down again). more: true when more match (call again). One audit row per call (CALLBACK_REDELIVER_HOST). An admin names another app with ?appId=.
     */
    post: operations['CallbacksController_redeliverHost'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/callbacks/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Callback deliveries, newest first (paged by cursor, or offset, and limit)
     * @description The calling app's deliveries in this namespace (an admin's list: every app's, or those of ?appId=), optionally in one state; each as a task shows its `callback`, with the instance, its requestId and job, the host and the times. The rows are read from the (namespace, state, next_attempt_at) index and sorted by createdAt; retention removes settled deliveries with their instances.
     */
    get: operations['CallbacksController_deliveryList'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/callbacks/register': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Register a callback URL (default or per handler)
     * @description Sets the app's default callback URL (no handler) or the one for a handler name, replacing the one it had. A final state goes to the task's or job's callbackUrl, else the registration for its handler, else the default (docs/callbacks.md "Where a callback goes"); a registration applies to every instance that finishes after it commits. At most 1000 registrations per app (a 409 naming handler beyond). Deliveries are signed with the app secret: X-Tickwheel-Signature is v1=<hex HMAC-SHA256(secret, "<X-Tickwheel-Timestamp>.<raw body>")>; verifyCallback of the client checks it (docs/callbacks.md "Verifying"). Audit-logged (CALLBACK_REGISTER). The calling app's registrations only: another app never sees or changes them (an admin names another app with ?appId=).
     */
    post: operations['CallbacksController_register'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/callbacks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The app's callback registrations
     * @description The calling app's registrations only: another app never sees or changes them (an admin names another app with ?appId=).
     */
    get: operations['CallbacksController_list'];
    put?: never;
    post?: never;
    /**
     * Remove a callback registration
     * @description Removes the registration of ?handler= (omitted: the app's default); instances that finish after it use the next rule. Deliveries already written keep their URL. Audit-logged (CALLBACK_DELETE). The calling app's registrations only: another app never sees or changes them (an admin names another app with ?appId=).
     */
    delete: operations['CallbacksController_remove'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/schedules/load': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Fires per minute of the enabled jobs over the next hours
     * @description How many fires the enabled jobs the caller sees (its app's; an admin's: the namespace, or ?appId=) will make per minute over the next `hours`, from the start of this minute, and the seconds where at least `herd` of them fall together. Computed by the scheduler's own next-fire search, as GET /api/jobs/{id} nextFireTimes: CRON from its expression, FIXED_RATE on its grid from the job's next fire, FIXED_DELAY assuming runs take no time. A fire counts once, whatever the shards. Bounded work: jobs with one schedule are computed once; one schedule iterates at most 2,000 fires and all of them 50,000; a denser job is counted on from its rate over the span it was iterated (estimatedJobs counts those). At most 50000 jobs are read (by code); writes nothing.
     */
    get: operations['SchedulesController_load'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/schedules/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Preview the next fire times of a trigger, with DST notes
     * @description The next fire times of a trigger after an instant, computed by the scheduler's own search (the times a job with this trigger would fire; FIXED_RATE from `from`, FIXED_DELAY assuming runs take no time), each with its wall-clock time in the zone and, when a clock change (DST) moved or merged it, a note (docs/trigger.md "Preview and DST notes"). Validated as a job's trigger is; stores nothing. At most 100 times; fewer when the trigger stops or a cron has no fire within 8 years.
     */
    post: operations['SchedulesController_preview'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/worker/nodes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Register an app worker node
     * @description A node of the caller's app advertising `handlers` (never a built-in one) with `capacity`: only the app's own instances of those handlers are routed to it. Answers its id and the timings to keep.
     */
    post: operations['WorkerController_register'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/worker/nodes/{nodeId}/heartbeat': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A worker node's heartbeat
     * @description Keeps the node live (every heartbeatIntervalMs); `draining: true` stops routing new work to it. Silent for nodeTimeoutMs, the node expires and what it held is taken back.
     */
    post: operations['WorkerController_heartbeat'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/worker/nodes/{nodeId}/claims': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Claim attempts (long poll)
     * @description Up to `max` attempts routed to the node (never more than twice its capacity minus its RUNNING attempts: its handlers and the finishes on their way), each RUNNING under a new fencing token and leased until leaseUntil; waits up to `waitMs` when none is queued.
     */
    post: operations['WorkerController_claim'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/worker/nodes/{nodeId}/leases': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Renew the leases of running attempts
     * @description Each named attempt still RUNNING on the node under its token is leased until leaseUntil; the others are answered in `lost` (LEASE_LOST, or REVOKED when cancelled): abort their handlers.
     */
    post: operations['WorkerController_leases'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/worker/nodes/{nodeId}/attempts/{instanceId}/checkpoint': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Store an attempt's checkpoint
     * @description Fenced: stored (and the lease renewed) only while the attempt holds the row; a later attempt reads it.
     */
    post: operations['WorkerController_checkpoint'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/worker/nodes/{nodeId}/attempts/{instanceId}/progress': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Report an attempt's progress
     * @description Coalesced as an executor’s (PROGRESS_WRITE_INTERVAL_MS); a stale token’s report is dropped.
     */
    post: operations['WorkerController_progress'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/worker/nodes/{nodeId}/attempts/{instanceId}/logs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send an attempt's handler log lines
     * @description Kept in the task’s logs with the bounds of an executor’s (HANDLER_LOG_MAX_LINES, HANDLER_LOG_MAX_BYTES per attempt); lines of a stale token are dropped.
     */
    post: operations['WorkerController_logs'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/worker/nodes/{nodeId}/attempts/{instanceId}/finish': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Finish an attempt
     * @description Records the outcome as an executor’s: success, or retry-or-fail by the instance’s policy (maxAttempts, backoff), SHUTDOWN hands it back. Fenced: a stale token loses (409) and changes nothing.
     */
    post: operations['WorkerController_finish'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/worker/nodes/{nodeId}/finishes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Finish several attempts
     * @description Up to 100 finishes of the node’s attempts in one call, each recorded as the single finish route records it and answered in order with the status that route would have given it (200, 404 or 409).
     */
    post: operations['WorkerController_finishes'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/worker/nodes/{nodeId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Deregister a worker node
     * @description The node leaves the registry; what it still held is taken back by the reconciler.
     */
    delete: operations['WorkerController_deregister'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/whoami': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The calling app, its namespace and scopes
     * @description What the signature says: the app id, this deployment's namespace, the client's scopes and whether it is an admin. Any signed caller may read it, whatever its scopes (no 403); it reads no table.
     */
    get: operations['OverviewController_whoami'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/overview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * What finished in the last 24 hours, what runs and waits now
     * @description Instances (fires and tasks) that reached a final state in the last 24 hours, by status and by hour (the 24 whole UTC hours ending with the current one, up to now), the failure rate, what runs now (the count and the 20 newest starts) and what waits (PENDING, WAITING, DISPATCHED). The caller's app; an admin's figures cover the namespace, or the app of ?appId=. Read from the finished_at index (the window) and the (status, fire_time) or (app_id, status) index (the rest).
     */
    get: operations['OverviewController_overview'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/notifications/rules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The app's notification rules
     * @description The calling app's rules only (an admin names another app with ?appId=, or ?appId=* for the namespace defaults, which apply to every app with no enabled rule of its own of that kind). Audit-logged.
     */
    get: operations['NotificationRulesController_list'];
    put?: never;
    /**
     * Create a notification rule
     * @description Channels: webhook (signed JSON), chat (Slack/Mattermost incoming webhook) or email (SMTP_URL must be set); URLs pass the egress policy (a 400 naming channels[i].url). Each kind takes its own fields (another is a 400 naming it). Events of one group (job, handler or host; or the whole rule with groupBy RULE) within quietMs of the group's last message go out as one message (docs/notifications.md). At most 50 rules per app. The calling app's rules only (an admin names another app with ?appId=, or ?appId=* for the namespace defaults, which apply to every app with no enabled rule of its own of that kind). Audit-logged.
     */
    post: operations['NotificationRulesController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/notifications/rules/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One notification rule
     * @description The calling app's rules only (an admin names another app with ?appId=, or ?appId=* for the namespace defaults, which apply to every app with no enabled rule of its own of that kind). Audit-logged.
     */
    get: operations['NotificationRulesController_get'];
    /**
     * Create or replace a notification rule
     * @description The body is the whole rule. Channels: webhook (signed JSON), chat (Slack/Mattermost incoming webhook) or email (SMTP_URL must be set); URLs pass the egress policy (a 400 naming channels[i].url). Each kind takes its own fields (another is a 400 naming it). Events of one group (job, handler or host; or the whole rule with groupBy RULE) within quietMs of the group's last message go out as one message (docs/notifications.md). At most 50 rules per app. The calling app's rules only (an admin names another app with ?appId=, or ?appId=* for the namespace defaults, which apply to every app with no enabled rule of its own of that kind). Audit-logged.
     */
    put: operations['NotificationRulesController_put'];
    post?: never;
    /**
     * Delete a notification rule
     * @description Its messages stay listed. The calling app's rules only (an admin names another app with ?appId=, or ?appId=* for the namespace defaults, which apply to every app with no enabled rule of its own of that kind). Audit-logged.
     */
    delete: operations['NotificationRulesController_remove'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/notifications/rules/{name}/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a test message to a rule's channels
     * @description Writes a message of the rule now, past its quiet period, and sends it to every channel like any other (GET /api/notifications shows its deliveries; the per-app hourly cap applies). Audit-logged (NOTIFY_RULE_TEST). The calling app's rules only (an admin names another app with ?appId=, or ?appId=* for the namespace defaults, which apply to every app with no enabled rule of its own of that kind). Audit-logged.
     */
    post: operations['NotificationRulesController_test'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/notifications': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Notification messages, newest first (paged by cursor, or offset, and limit)
     * @description The calling app's messages in this namespace (an admin's list: every app's, or those of ?appId=), optionally of one state, kind or rule, each with its deliveries (one per channel: state, tries, last error). A URL is shown without its query string.
     */
    get: operations['NotificationsController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Prometheus metrics (text exposition format 0.0.4; unsigned: keep it off the public ingress)
     * @description The tickwheel_* series of docs/observability.md "Metrics" and the process metrics, one sample per line.
     */
    get: operations['MetricsController_index'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    LiveDto: {
      /**
       * @description Always 'ok': the process answers HTTP.
       * @example ok
       */
      status: string;
    };
    ReadyDto: {
      /**
       * @description 'ok' when every dependency answered, else 'error' (503).
       * @enum {string}
       */
      status: 'ok' | 'error';
      /**
       * @description The dependencies that answered, by name (database, redis): {status: 'up', ...}.
       * @example {
       *       "database": {
       *         "status": "up"
       *       },
       *       "redis": {
       *         "status": "up",
       *         "mode": "in-process"
       *       }
       *     }
       */
      info?: {
        [key: string]: unknown;
      };
      /** @description The dependencies that did not answer (the database within 2000 ms), by name: {status: 'down'}. */
      error?: {
        [key: string]: unknown;
      };
      /** @description Every dependency by name, up or down. */
      details: {
        [key: string]: unknown;
      };
    };
    ProblemDto: {
      /**
       * @description Always 'about:blank': the status and code say what happened.
       * @example about:blank
       */
      type: string;
      /**
       * @description The HTTP status phrase in lower case.
       * @example bad request
       */
      title: string;
      /**
       * @description The HTTP status code (repeated from the status line).
       * @example 400
       */
      status: number;
      /** @description What was wrong, for a person to read (never a stack or a secret). */
      detail: string;
      /**
       * @description The request path and query that this answer is for.
       * @example /api/tasks
       */
      instance: string;
      /**
       * @description Stable machine-readable code: branch on it, not on detail.
       * @example VALIDATION
       * @enum {string}
       */
      code:
        | 'VALIDATION'
        | 'NOT_FOUND'
        | 'CONFLICT'
        | 'UNAUTHORIZED'
        | 'FORBIDDEN'
        | 'RATE_LIMITED'
        | 'TOO_MANY_UNFINISHED'
        | 'PAYLOAD_TOO_LARGE'
        | 'UNSUPPORTED_MEDIA_TYPE'
        | 'ILLEGAL_TRANSITION'
        | 'CONFIG'
        | 'HANDLER_NOT_FOUND'
        | 'IDEMPOTENCY_KEY_REUSED'
        | 'IDEMPOTENCY_IN_PROGRESS'
        | 'TOO_MANY_IDEMPOTENCY_KEYS'
        | 'STORAGE_UNAVAILABLE'
        | 'INTERNAL'
        | 'HTTP';
      /**
       * @description The input at fault: a body field (dotted path), a query parameter or a header, when there is one.
       * @example triggerExpr
       */
      field?: string;
      /**
       * @description A 403's missing scope (README 'Tenancy and scopes').
       * @example jobs:write
       */
      scope?: string;
      /**
       * @description A 503 STORAGE_UNAVAILABLE's store that cannot be reached (never its address); send again after Retry-After.
       * @example database
       * @enum {string}
       */
      storage?: 'database' | 'redis';
    };
    CallbackViewDto: {
      /** @description The delivery id, sent as X-Tickwheel-Delivery on every try and redelivery: receivers deduplicate on it. */
      deliveryId: string;
      /** @description Where it is sent (the task or job URL, else the registration that applied). */
      url: string;
      /**
       * @description PENDING: written, not tried yet; RETRYING: tried and failed, tried again at nextAttemptAt (after 5 s, 30 s, 2 min, 10 min, 30 min by default, CALLBACK_RETRY_DELAYS_MS); DELIVERED: the receiver answered 2xx; CALLBACK_FAILED (final): tries spent, a 4xx other than 408/429 or a 3xx (not retried), an egress refusal of the resolved address, or older than CALLBACK_MAX_AGE_MS (24 h).
       * @enum {string}
       */
      status: 'PENDING' | 'RETRYING' | 'DELIVERED' | 'CALLBACK_FAILED';
      /** @description Tries made so far (a probe of a host marked down is not counted). */
      attempts: number;
      /** @description The last try's HTTP status; null before an answer. */
      lastStatusCode: number | null;
      /** @description Why the last try failed (e.g. 'timeout'). */
      lastError: string | null;
      /** @description When it is tried next (PENDING, RETRYING); else null. */
      nextAttemptAt: string | null;
      /** @description When the receiver answered 2xx (DELIVERED). */
      deliveredAt: string | null;
    };
    AttemptViewDto: {
      /** @description 1-based; a retry, a lost node or lease, or a hand-back starts the next one. */
      attempt: number;
      /** @description The executor node that ran it. */
      nodeId: string;
      /** @description The fencing token the attempt ran under (docs/execution.md); a later attempt has a larger one. */
      fencingToken: number;
      /** @description RUNNING, SUCCESS, FAILED, TIMEOUT, CANCELLED, HANDED_BACK (its node shut down), NODE_LOST or LEASE_LOST (taken back). */
      status: string;
      /** @description When the attempt started, UTC ISO-8601 (ms). */
      startedAt: string;
      /** @description When it ended, UTC ISO-8601 (ms); null while it runs. */
      finishedAt: string | null;
      /** @description Why it failed (at most 4000 characters, a cut one ending ` …[N characters cut]`); null: none. */
      error: string | null;
      /** @description When the handler really returned; later than finishedAt when it ignored its abort and kept running. null: it has not returned (yet), or its node was lost. */
      handlerEndedAt: string | null;
      /**
       * @description A late completion: how a handler that returned after its attempt was recorded ended. Never applied to the instance.
       * @enum {string|null}
       */
      lateStatus: 'SUCCESS' | 'FAILED' | null;
      /** @description The late completion's error (FAILED). */
      lateError: string | null;
      /** @description This attempt started while an earlier attempt's handler of the same instance still ran (two ran at once). */
      overlapsPrevious: boolean;
    };
    TaskViewDto: {
      /** @description The task's requestId; for a job fire, one the scheduler made up. */
      requestId: string;
      /** @description The instance id (UUID): names a job fire in /api/jobs/{id}/instances/{instanceId}. */
      instanceId: string;
      /** @description The app that owns it: the task's submitter, or the job's owner (an admin names it with ?appId=). */
      appId: string;
      /** @description The handler that runs it. */
      handler: string;
      /** @description The task's taskName (docs/api.md "The design source's shape"); null: none, and for job fires. */
      taskName: string | null;
      /**
       * @description Where it is (docs/state-machine.md); SUCCESS, FAILED, TIMEOUT and CANCELLED are final.
       * @enum {string}
       */
      status: 'PENDING' | 'WAITING' | 'DISPATCHED' | 'RUNNING' | 'SUCCESS' | 'FAILED' | 'TIMEOUT' | 'CANCELLED';
      /** @description The current (or last) attempt, from 1; 0 before the first starts. */
      attempt: number;
      /** @description Most attempts it gets (1 + retries). */
      maxAttempts: number;
      /** @description The executor node it was routed to; null before. */
      nodeId: string | null;
      /** @description The job's code for a job fire; null for a task. */
      jobCode: string | null;
      /** @description Shard of the fire, 0-based (SHARDING_BROADCAST jobs; 0 otherwise). */
      shardIndex: number;
      /** @description Shards of the fire (1 unless SHARDING_BROADCAST). */
      shardTotal: number;
      /**
       * @description What created it: API for a task, SCHEDULE for a fire, MANUAL for trigger-now, BACKFILL...
       * @enum {string}
       */
      triggerSource: 'SCHEDULE' | 'API' | 'MANUAL' | 'BACKFILL' | 'RETRY' | 'MISFIRE';
      /** @description What the handler returned (JSON, at most 65,535 bytes); null: none. */
      result: Record<string, unknown> | null;
      /** @description The outcome's error, once final; an earlier attempt's error is in `attempts`. */
      error: string | null;
      /** @description W3C trace id (32 hex) of its run: the `traceparent` it was submitted with, else a new one; every log line about it carries it (docs/observability.md "Tracing"). */
      traceId: string;
      /**
       * @description The W3C `traceparent` its work continues: its trace id and the span of its submit or fire. Each attempt is a child span (the handler's ctx.traceparent, the `http` handler's header); callbacks carry a child of it.
       * @example 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01
       */
      traceparent: string;
      /** @description The scheduled fire time (a task: when it was submitted), UTC ISO-8601 (ms). */
      fireTime: string;
      /** @description When it becomes due to run (fire time + delayMs, or a retry backoff), UTC ISO-8601. */
      dueAt: string;
      /** @description When the row was written, UTC ISO-8601 (ms). */
      createdAt: string;
      /** @description When it was routed to a node, UTC ISO-8601; or null. */
      dispatchedAt: string | null;
      /** @description When its last attempt started, UTC ISO-8601; null: not. */
      startedAt: string | null;
      /** @description When it reached its final state, UTC ISO-8601; or null. */
      finishedAt: string | null;
      /** @description When the handler last stored a checkpoint (`ctx.checkpoint`, docs/long-tasks.md); null: none. The state itself is not shown. */
      checkpointAt: string | null;
      /** @description The attempt that stored the last checkpoint; the next attempt resumes from it. Null: none. */
      checkpointAttempt: number | null;
      /** @description The instance's own callback URL (the task's, or its job's when it was created); null: none. */
      callbackUrl: string | null;
      /** @description The callback delivery, written when the instance reached its final state with a callback URL (its own, else the app's registration for the handler, else its default); null before that, or when none applied. POST …/callback/redeliver sends it again. */
      callback: components['schemas']['CallbackViewDto'] | null;
      /** @description Last progress the handler reported (ctx.progress), a fraction 0..1; null: none reported. */
      progress: number | null;
      /** @description The note of that report (at most 256 characters). */
      progressNote: string | null;
      /** @description When that report was stored (at most one write per PROGRESS_WRITE_INTERVAL_MS per instance; later reports coalesce). */
      progressAt: string | null;
      /** @description Heartbeat timeout of its attempts, ms (docs/long-tasks.md); 0 = none. */
      heartbeatTimeoutMs: number;
      /** @description Its priority, 1 (lowest) to 5 (highest): its task's, or its job's when fired (a trigger-now may override). Within its app's share of an executor, higher runs first, aged by waiting (docs/dispatch.md "Priorities"). */
      priority: number;
      /**
       * @description HARD: timeoutMs ends an attempt; HEARTBEAT: only silence or MAX_RUN_TIME_MS (docs/long-tasks.md).
       * @enum {string}
       */
      timeoutMode: 'HARD' | 'HEARTBEAT';
      /** @description Every attempt so far, oldest first: on reads of one instance (GET of a task or of a job instance), not in lists. */
      attempts?: components['schemas']['AttemptViewDto'][];
      /** @description On reads of one instance: why a due PENDING instance is not moving, e.g. no live executor advertises its handler. On any read: which stored fields cannot be read (a corrupt row, e.g. params cut at 65,535 bytes), shown as null. */
      note?: string;
    };
    TaskPageDto: {
      /** @description How many tasks match the filters in all (every page). */
      total: number;
      /** @description This page, newest createdAt first (then by instance id); each as GET /api/tasks/{requestId} without its `attempts` (callbackUrl and callback included). */
      items: components['schemas']['TaskViewDto'][];
      /** @description Give as `cursor` for the next page; null when this page is the last. */
      nextCursor: string | null;
    };
    SubmitTaskDto: {
      /**
       * @description Idempotency key chosen by the caller (1-128 of A-Z a-z 0-9 _ . : -). The same id with the same body returns the first answer; with another body it is a 409. Generated when absent.
       * @example order-42-sync
       */
      requestId?: string;
      /**
       * @description Name of the handler that runs the task (built in: 'noop', 'http', and 'shell' when enabled; 1-128 of A-Z a-z 0-9 _ . : -). Required, unless the body is in the design source's shape (taskCode).
       * @example http
       */
      handler?: string;
      /**
       * @description Of the design source's shape (docs/api.md): the handler (as `handler`); required in that shape.
       * @example data_sync_report
       */
      taskCode?: string;
      /**
       * @description A name for people (at most 255 characters; no control characters), stored and shown in the task's views; in either shape.
       * @example 月度数据同步
       */
      taskName?: string;
      /**
       * @description Of the design source's shape (docs/api.md): 'immediate' (run when due now) or 'delay' (run `delay` ms from now; `delay` required). Default: 'delay' with a delay, else 'immediate'.
       * @enum {string}
       */
      triggerType?: 'delay' | 'immediate';
      /** @description Of the design source's shape (docs/api.md): the handler parameters (as `params`, same bound). */
      executeParams?: Record<string, unknown>;
      /**
       * @description Of the design source's shape (docs/api.md): milliseconds from now before it runs (as `delayMs`, 0 - 31 days).
       * @example 60000
       */
      delay?: number;
      /**
       * @description Handler parameters (JSON object, at most 65535 bytes as JSON: a 400 naming params beyond). For 'http': method, url, headers, body, timeoutMs.
       * @example {
       *       "method": "GET",
       *       "url": "http://reports.internal:8080/health"
       *     }
       */
      params?: Record<string, unknown>;
      /**
       * @description Run no earlier than this many milliseconds from now (0 - 31 days).
       * @example 0
       */
      delayMs?: number;
      /**
       * @description Time limit of one attempt, ms (default 60000, max 24 h and at most the operator's MAX_RUN_TIME_MS). On expiry the signal aborts and the attempt is TIMEOUT. Not applied with timeoutMode HEARTBEAT.
       * @example 60000
       */
      timeoutMs?: number;
      /**
       * @description Heartbeat timeout, ms (docs/long-tasks.md): an attempt whose handler neither reports progress, checkpoints nor calls ctx.heartbeat() for this long is stuck and ends TIMEOUT with an error starting HEARTBEAT_TIMEOUT (retried like a timeout). 0 (default) = none; else 1000 up to timeoutMs. Required with timeoutMode HEARTBEAT: then 1000 up to MAX_RUN_TIME_MS.
       * @example 0
       */
      heartbeatTimeoutMs?: number;
      /**
       * @description Priority, 1 (lowest) to 5 (highest), default 3. Within its app's share of an executor, higher runs first; waiting raises it one level per PRIORITY_AGING_MS (10 s by default), so a lower one is never starved. A job copies its own to each instance.
       * @example 3
       */
      priority?: number;
      /**
       * @description What ends a long attempt (docs/long-tasks.md "Timeout modes"). HARD (default): timeoutMs, even while the handler reports progress or heartbeats. HEARTBEAT: only heartbeatTimeoutMs of silence (required then; the attempt ends TIMEOUT with an error starting HEARTBEAT_TIMEOUT), or the operator's MAX_RUN_TIME_MS (default 24 h; error starting MAX_RUN_TIME_MS); timeoutMs is kept but not applied.
       * @enum {string}
       */
      timeoutMode?: 'HARD' | 'HEARTBEAT';
      /**
       * @description Attempts in all, first included (1-20, default 1).
       * @example 3
       */
      maxAttempts?: number;
      /**
       * @description Base delay between attempts, ms (default 1000, max 1 h).
       * @example 1000
       */
      retryBackoffMs?: number;
      /**
       * @description FIXED (default): every retry waits retryBackoffMs. EXPONENTIAL: the wait doubles at each retry, up to 1 h, with ±20 % jitter.
       * @enum {string}
       */
      retryBackoffKind?: 'FIXED' | 'EXPONENTIAL';
      /** @description Routing key (at most 255 characters): tasks with the same key go to the same executor while the node set holds (consistent hash; adding or removing one of N nodes moves about 1/N of the keys). Without it tasks go round robin. */
      routingKey?: string;
      /**
       * @description Where the final state (SUCCESS, FAILED, TIMEOUT or CANCELLED) is POSTed once reached, signed with the app's secret (headers X-Tickwheel-Delivery, X-Tickwheel-Timestamp, X-Tickwheel-Signature; see docs/callbacks.md "Verifying"). http: or https:, at most 2048 characters, no user name or password. Checked against the egress policy (narrowed by the app's egressAllow) without DNS: loopback, localhost, link-local, metadata (169.254.169.254) and the cluster's own services are a 400 naming the field; the resolved address is checked again at send time. Omitted: the app's registration for the handler, else its default (POST /api/callbacks/register), else no callback. Part of the body an idempotent resubmit is compared on.
       * @example https://hooks.example.com/tickwheel
       */
      callbackUrl?: string;
    };
    TaskAcceptedDto: {
      /** @description The requestId you sent (1-128 of A-Z a-z 0-9 _ . : -): names the task from now on. */
      requestId: string;
      /**
       * @description PENDING for a new task (stored; GET it for its state later). A replay (Idempotency-Replayed: true) answers the existing task's status now, e.g. SUCCESS for one that has ended.
       * @example PENDING
       * @enum {string}
       */
      status: 'PENDING' | 'WAITING' | 'DISPATCHED' | 'RUNNING' | 'SUCCESS' | 'FAILED' | 'TIMEOUT' | 'CANCELLED';
      /** @description Milliseconds until the task becomes due (its delay). */
      estimatedDelay: number;
      /** @description Only on a replay of a task that has ended (SUCCESS, FAILED, TIMEOUT, CANCELLED): what its handler returned, as GET shows it; null: none. */
      result?: Record<string, unknown> | null;
      /** @description Only on a replay of a task that has ended: its error, as GET shows it; null: none. */
      error?: string | null;
    };
    SubmitTaskBatchDto: {
      /** @description The tasks (1-1000), each exactly as the body of POST /api/tasks (its own requestId and idempotency). One invalid task refuses the whole batch with a 400 whose `field` names it, e.g. `tasks[3].handler`; a longer list is a 400 naming `tasks`, refused before its items are read. */
      tasks: components['schemas']['SubmitTaskDto'][];
    };
    TaskBatchAcceptedItemDto: {
      /** @description The requestId you sent (1-128 of A-Z a-z 0-9 _ . : -): names the task from now on. */
      requestId: string;
      /**
       * @description PENDING for a new task (stored; GET it for its state later). A replay (Idempotency-Replayed: true) answers the existing task's status now, e.g. SUCCESS for one that has ended.
       * @example PENDING
       * @enum {string}
       */
      status: 'PENDING' | 'WAITING' | 'DISPATCHED' | 'RUNNING' | 'SUCCESS' | 'FAILED' | 'TIMEOUT' | 'CANCELLED';
      /** @description Milliseconds until the task becomes due (its delay). */
      estimatedDelay: number;
      /** @description Only on a replay of a task that has ended (SUCCESS, FAILED, TIMEOUT, CANCELLED): what its handler returned, as GET shows it; null: none. */
      result?: Record<string, unknown> | null;
      /** @description Only on a replay of a task that has ended: its error, as GET shows it; null: none. */
      error?: string | null;
      /** @description True when the task already existed before this request (a replay: nothing new was created); the item then shows the task as it is now (its status, and its result and error once it has ended). */
      replayed: boolean;
    };
    TaskBatchItemProblemDto: {
      /**
       * @description The HTTP status POST /api/tasks would have answered (today 409).
       * @example 409
       */
      status: number;
      /**
       * @description The status phrase in lower case.
       * @example conflict
       */
      title: string;
      /**
       * @description Stable machine-readable code, as in a problem+json answer.
       * @example CONFLICT
       */
      code: string;
      /**
       * @description What was wrong, for a person to read.
       * @example requestId 'order-42-sync' was already used with a different body
       */
      detail: string;
      /**
       * @description The input at fault, when there is one.
       * @example requestId
       */
      field?: string;
    };
    TaskBatchRefusedItemDto: {
      /** @description The refused task's requestId. */
      requestId: string;
      /** @description Why it was refused (nothing was written for it). */
      error: components['schemas']['TaskBatchItemProblemDto'];
    };
    TaskBatchAcceptedDto: {
      /** @description results[i] answers tasks[i]: accepted (`replayed` says whether it existed already) or refused (`error`). */
      results: (components['schemas']['TaskBatchAcceptedItemDto'] | components['schemas']['TaskBatchRefusedItemDto'])[];
    };
    LogLineDto: {
      /** @description Line id: ascending in the order lines were logged; the paging cursor. */
      id: number;
      /** @description The attempt that logged it, from 1. */
      attempt: number;
      /** @description The executor node that ran the attempt. */
      nodeId: string;
      /** @description When the handler logged it (ISO-8601, UTC). */
      at: string;
      /**
       * @description The log level the handler used.
       * @enum {string}
       */
      level: 'info' | 'warn' | 'error';
      /** @description The text (arguments joined like console.log, objects as JSON), cut at 4,000 characters with a marker. When an attempt's bounds dropped lines, its first line is a warn marker saying how many. */
      line: string;
    };
    LogPageDto: {
      /** @description This page of lines, oldest first; at most `limit`. */
      items: components['schemas']['LogLineDto'][];
      /** @description The `after` of the next page, or null when there are no more lines now (a running attempt may add some: poll again with after = the last id read). */
      next: number | null;
    };
    CreateJobDto: {
      /**
       * @description Code of the job, unique per app in its namespace (1-128 of A-Z a-z 0-9 _ . -).
       * @example health-probe
       */
      code: string;
      /** @description Free text, at most 255 characters. */
      description?: string;
      /**
       * @description Handler name ('noop', 'http', 'shell' when enabled, or your own @JobHandler; 1-128 of A-Z a-z 0-9 _ . : -).
       * @example http
       */
      handler: string;
      /**
       * @description CRON: triggerExpr is 5 fields (min hour dom mon dow) or 6 (leading seconds), in timeZone. FIXED_RATE: period in ms (1 s to 365 days); fires stay on the grid of the first fire. FIXED_DELAY: delay in ms (1 s to 365 days) counted from the previous finish. ONE_SHOT: an ISO-8601 instant with Z or an offset.
       * @enum {string}
       */
      triggerType: 'CRON' | 'FIXED_RATE' | 'FIXED_DELAY' | 'ONE_SHOT';
      /**
       * @description Cron expression, period/delay in ms, or instant (see triggerType), at most 255 characters. One job may make at most JOB_MAX_INSTANCES_PER_MINUTE instances a minute (default 3000): its peak fires per minute (a cron's values in its seconds field, 1 for 5 fields; 60000 / period for FIXED_RATE and FIXED_DELAY) times shardTotal; beyond, a 400 names shardTotal or triggerExpr.
       * @example *\/10 * * * * *
       */
      triggerExpr: string;
      /**
       * @description IANA time zone the cron expression is read in (default UTC). The host TZ never matters.
       * @example Europe/London
       */
      timeZone?: string;
      /**
       * @description Handler parameters (JSON object, at most 65535 bytes as JSON), given to every fire.
       * @example {
       *       "method": "GET",
       *       "url": "http://reports.internal:8080/health"
       *     }
       */
      params?: Record<string, unknown>;
      /**
       * @description How an executor is picked among the live nodes that advertise the handler: ROUND_ROBIN (default); RANDOM; LEAST_ACTIVE (lowest (queued + running)/capacity, read from the nodes' Redis lists at routing time); CONSISTENT_HASH (a ring of virtual nodes keyed by routingKey: the same key goes to the same node while the node set holds, and adding or removing one of N nodes moves about 1/N of the keys); FAILOVER (the first live node in node-id order); SHARDING_BROADCAST (each fire becomes shardTotal instances; shard i goes to position i mod N of the job's rendezvous-hash order of the live nodes).
       * @enum {string}
       */
      routingStrategy?:
        'ROUND_ROBIN' | 'RANDOM' | 'LEAST_ACTIVE' | 'CONSISTENT_HASH' | 'FAILOVER' | 'SHARDING_BROADCAST';
      /**
       * @description CONSISTENT_HASH: the name of a params field whose value is the routing key (so a trigger-now with other params can route elsewhere). Without it, or when the field is missing, the instance id is hashed.
       * @example tenant
       */
      routingKey?: string;
      /**
       * @description SHARDING_BROADCAST: instances per fire, 1-1000 (default 1). The handler sees shardIndex (0-based) and shardTotal; each shard of a fire runs once whatever the node count. Peak fires per minute times shardTotal may not exceed JOB_MAX_INSTANCES_PER_MINUTE (default 3000).
       * @example 3
       */
      shardTotal?: number;
      /**
       * @description SHARDING_BROADCAST: one JSON object per shard (exactly shardTotal), merged over params for that shard. At most 65535 bytes as JSON in all, and each shard's params with its entry merged over them at most 65535 bytes.
       * @example [
       *       {
       *         "region": "eu"
       *       },
       *       {
       *         "region": "us"
       *       },
       *       {
       *         "region": "ap"
       *       }
       *     ]
       */
      shardParams?: Record<string, unknown>[];
      /**
       * @description Fires missed while no scheduler led or the client was disabled (or lagging past MISFIRE_THRESHOLD_MS), recorded with triggerSource MISFIRE: FIRE_ONCE_NOW (default) runs once, for the latest missed time; SKIP runs none and records each as a CANCELLED MISFIRE_SKIP row; FIRE_ALL runs every missed time, oldest first, at most 100 per job.
       * @enum {string}
       */
      misfirePolicy?: 'FIRE_ONCE_NOW' | 'SKIP' | 'FIRE_ALL';
      /**
       * @description A fire while an earlier fire of the job is unfinished: ALLOW (default) runs both; SKIP records the new fire as CANCELLED (OVERLAP_SKIP); QUEUE keeps it WAITING (at most queueLimit) and runs fires one at a time in order, none while the job is paused; REPLACE cancels the unfinished ones (a running handler sees its signal abort at once) and runs the new one.
       * @enum {string}
       */
      overlapPolicy?: 'ALLOW' | 'SKIP' | 'QUEUE' | 'REPLACE';
      /**
       * @description Most instances of this job dispatched or running at once across the cluster (0 = no limit, the default; at most 10000). Over it an instance waits as WAITING and is released, oldest first, when one ends: never dropped. With overlapPolicy QUEUE it must be 0 or 1.
       * @example 2
       */
      maxConcurrency?: number;
      /**
       * @description Most fires of an overlapPolicy QUEUE job kept WAITING (1 … 1000, default 10; 1 buffers one fire). A fire past it is recorded CANCELLED with an OVERLAP_QUEUE_FULL note and not run. Stored with any policy, used only under QUEUE.
       * @example 1
       */
      queueLimit?: number;
      /**
       * @description Time limit of one attempt, ms (default 60000, max 24 h and at most the operator's MAX_RUN_TIME_MS). On expiry the signal aborts and the attempt is TIMEOUT. Not applied with timeoutMode HEARTBEAT.
       * @example 60000
       */
      timeoutMs?: number;
      /**
       * @description Heartbeat timeout, ms (docs/long-tasks.md): an attempt whose handler neither reports progress, checkpoints nor calls ctx.heartbeat() for this long is stuck and ends TIMEOUT with an error starting HEARTBEAT_TIMEOUT (retried like a timeout). 0 (default) = none; else 1000 up to timeoutMs. Required with timeoutMode HEARTBEAT: then 1000 up to MAX_RUN_TIME_MS.
       * @example 0
       */
      heartbeatTimeoutMs?: number;
      /**
       * @description Priority, 1 (lowest) to 5 (highest), default 3. Within its app's share of an executor, higher runs first; waiting raises it one level per PRIORITY_AGING_MS (10 s by default), so a lower one is never starved. A job copies its own to each instance.
       * @example 3
       */
      priority?: number;
      /**
       * @description What ends a long attempt (docs/long-tasks.md "Timeout modes"). HARD (default): timeoutMs, even while the handler reports progress or heartbeats. HEARTBEAT: only heartbeatTimeoutMs of silence (required then; the attempt ends TIMEOUT with an error starting HEARTBEAT_TIMEOUT), or the operator's MAX_RUN_TIME_MS (default 24 h; error starting MAX_RUN_TIME_MS); timeoutMs is kept but not applied.
       * @enum {string}
       */
      timeoutMode?: 'HARD' | 'HEARTBEAT';
      /** @description Retries after the first attempt (0-19, default 0). */
      retryMax?: number;
      /**
       * @description Base delay between attempts, ms (default 1000, max 1 h).
       * @example 1000
       */
      retryBackoffMs?: number;
      /**
       * @description FIXED (default): every retry waits retryBackoffMs. EXPONENTIAL: the wait doubles at each retry, up to 1 h, with ±20 % jitter.
       * @enum {string}
       */
      retryBackoffKind?: 'FIXED' | 'EXPONENTIAL';
      /** @description Whether the schedule runs (default true). Pause/resume change it. */
      enabled?: boolean;
      /**
       * @description Where the final state (SUCCESS, FAILED, TIMEOUT or CANCELLED) is POSTed once reached, signed with the app's secret (headers X-Tickwheel-Delivery, X-Tickwheel-Timestamp, X-Tickwheel-Signature; see docs/callbacks.md "Verifying"). http: or https:, at most 2048 characters, no user name or password. Checked against the egress policy (narrowed by the app's egressAllow) without DNS: loopback, localhost, link-local, metadata (169.254.169.254) and the cluster's own services are a 400 naming the field; the resolved address is checked again at send time. Omitted: the app's registration for the handler, else its default (POST /api/callbacks/register), else no callback. Part of the body an idempotent resubmit is compared on. Copied into each instance when it is created (a fire, trigger-now, backfill): a PATCH affects later instances only; PATCH with null clears it.
       * @example https://hooks.example.com/tickwheel
       */
      callbackUrl?: string | null;
      /** @description Per-job metrics (docs/observability.md "Job runs"): true counts this job's runs by final status in tickwheel_job_runs_total{app,job,status} (within 30 s of the change on every process). Default false; at most JOB_METRICS_MAX (default 100) jobs of the namespace have it on: one more is a 409 naming metrics, and nothing is written. null is refused (it is not false). */
      metrics?: boolean;
    };
    FireNoteDto: {
      /**
       * @description GAP_SHIFTED: the wall time does not exist (spring forward) and a fixed-time cron fires later by the gap's length (02:30 → 03:30; 30 min in Lord Howe). GAP_SKIPPED: a cron with * in its minute or hour field follows elapsed time, so its wall times in a gap did not fire; on the first fire after the gap. OVERLAP_FIRST_ONLY: the wall time happens twice (fall back) and a fixed-time cron fires once, at the first. OVERLAP_BOTH: the wall time happens twice and a cron with * in its minute or hour field fires at both (the detail says which this is). SAME_INSTANT: two matching wall times fall on this one instant (a shifted one meets a real one), which fires once. docs/trigger.md "Preview and DST notes".
       * @enum {string}
       */
      kind: 'GAP_SHIFTED' | 'GAP_SKIPPED' | 'OVERLAP_FIRST_ONLY' | 'OVERLAP_BOTH' | 'SAME_INSTANT';
      /**
       * @description The same in words: the wall time, date, zone, the clock change and what the engine does.
       * @example 02:30 does not exist on 2026-03-08 in America/New_York (clocks go forward from 02:00 to 03:00, UTC-05:00 → UTC-04:00): fires 1 h later, at 03:30 (UTC-04:00)
       */
      detail: string;
    };
    FireTimeDto: {
      /**
       * @description The fire instant, ISO-8601 UTC with milliseconds.
       * @example 2026-03-08T07:30:00Z
       */
      fireTime: string;
      /**
       * @description The same instant as wall-clock time in the zone with its UTC offset then (milliseconds only when not 0).
       * @example 2026-03-08T03:30:00-04:00
       */
      local: string;
      /** @description Only on a fire that a clock change (DST or another zone offset change) moved or merged. */
      note?: components['schemas']['FireNoteDto'];
    };
    LastRunDto: {
      /** @description The instance id (UUID): GET /api/jobs/{id}/instances/{instanceId} reads it. */
      instanceId: string;
      /** @description Its status now, final or not (PENDING … CANCELLED). */
      status: string;
      /** @description The fire time it ran for, UTC ISO-8601 (ms). */
      fireTime: string;
      /** @description When its last attempt started; null: not yet. */
      startedAt: string | null;
      /** @description When it reached its final state; null: not yet. */
      finishedAt: string | null;
      /** @description finishedAt - startedAt in ms; null until both are set. */
      durationMs: number | null;
    };
    ReshardingDto: {
      /** @description Shards placed on a node (shardTotal once a fire has been routed). */
      total: number;
      /** @description Shards marked for resharding: their owner is live but the rendezvous deal now names another node; each moves at a later fire, one shard per fire, once its run on the old owner has ended. 0: settled. */
      pending: number;
      /** @description Shards moved to their new owner since the latest resharding began. */
      moved: number;
    };
    JobViewDto: {
      /** @description The job id (UUID): names the job in every /api/jobs/{id} route, like its code. */
      id: string;
      /** @description The app that owns the job (created it). */
      appId: string;
      /** @description The job code, unique per app in its namespace (1-128 of A-Z a-z 0-9 _ . -). */
      code: string;
      /** @description Free text, at most 255 characters; null: none. */
      description: string | null;
      /** @description The handler name an executor advertises (e.g. noop, http, shell). */
      handler: string;
      /**
       * @description How fire times are computed (docs/trigger.md).
       * @enum {string}
       */
      triggerType: 'CRON' | 'FIXED_RATE' | 'FIXED_DELAY' | 'ONE_SHOT';
      /** @description CRON: a 5/6-field expression; FIXED_RATE / FIXED_DELAY: a period in ms; ONE_SHOT: an ISO-8601 instant. */
      triggerExpr: string | null;
      /** @description IANA time zone a CRON expression is read in (e.g. Europe/Paris); default UTC. */
      timeZone: string;
      /** @description JSON handed to the handler on every fire (null when a stored value is corrupt). */
      params: Record<string, unknown>;
      /**
       * @description How each instance picks its executor (docs/dispatch.md).
       * @enum {string}
       */
      routingStrategy:
        'ROUND_ROBIN' | 'RANDOM' | 'LEAST_ACTIVE' | 'CONSISTENT_HASH' | 'FAILOVER' | 'SHARDING_BROADCAST';
      /** @description Key of CONSISTENT_HASH routing (same key, same node). */
      routingKey: string | null;
      /** @description Instances per fire (SHARDING_BROADCAST: one per shard), 1-1000. */
      shardTotal: number;
      /** @description Per-shard params, one per shard (index = shardIndex); null: every shard gets params. */
      shardParams: Record<string, unknown>[] | null;
      /**
       * @description What a fire missed while no leader ran does (docs/trigger.md).
       * @enum {string}
       */
      misfirePolicy: 'FIRE_ONCE_NOW' | 'SKIP' | 'FIRE_ALL';
      /**
       * @description What a fire does while the previous one still runs.
       * @enum {string}
       */
      overlapPolicy: 'ALLOW' | 'SKIP' | 'QUEUE' | 'REPLACE';
      /** @description Most instances of the job running at once; 0 = no limit. */
      maxConcurrency: number;
      /** @description Most fires kept WAITING under overlapPolicy QUEUE; further ones are skipped. */
      queueLimit: number;
      /** @description Time one attempt may run before it is a TIMEOUT, ms. */
      timeoutMs: number;
      /** @description Silence after which a running handler is stuck, ms (docs/long-tasks.md); 0 = none. */
      heartbeatTimeoutMs: number;
      /** @description Priority copied to each instance, 1 (lowest) to 5 (highest) (docs/dispatch.md). */
      priority: number;
      /**
       * @description HARD: timeoutMs ends an attempt; HEARTBEAT: only silence or MAX_RUN_TIME_MS (docs/long-tasks.md).
       * @enum {string}
       */
      timeoutMode: 'HARD' | 'HEARTBEAT';
      /** @description Retries after a failed attempt (0 = none): at most retryMax + 1 attempts. */
      retryMax: number;
      /** @description Wait before the first retry, ms (EXPONENTIAL doubles it each retry). */
      retryBackoffMs: number;
      /**
       * @description FIXED: every retry waits retryBackoffMs; EXPONENTIAL doubles it.
       * @enum {string}
       */
      retryBackoffKind: 'FIXED' | 'EXPONENTIAL';
      /** @description False while paused (POST .../pause): the schedule makes no fire. */
      enabled: boolean;
      /**
       * @description Why the system paused the job; null when it did not. CLIENT_DISABLED: its app's client was disabled; it resumes (its misfire policy deciding the fires missed meanwhile) when an admin enables the client; resume is a 409 until then (docs/tenancy.md "Disabled clients"). CRONTAB_USER: a crontab import kept it paused because its line names a user (root) it does not run as (README "Importing crontabs"); resume clears it. A user's own pause clears either.
       * @enum {string|null}
       */
      pausedReason: 'CLIENT_DISABLED' | 'CRONTAB_USER' | null;
      /** @description Where each new instance's final state is POSTed (copied into the instance when it is created); null: the app's registrations decide (docs/callbacks.md). */
      callbackUrl: string | null;
      /** @description Whether the job's runs are counted in tickwheel_job_runs_total (docs/observability.md "Job runs"); at most JOB_METRICS_MAX jobs of the namespace. */
      metrics: boolean;
      /** @description OK, or ERROR when the next fire could not be computed (see scheduleError). */
      scheduleState: string;
      /** @description Why the next fire could not be computed; else null. */
      scheduleError: string | null;
      /** @description The next fire, UTC ISO-8601 (ms); null while paused. */
      nextFireTime: string | null;
      /** @description The last fire made, UTC ISO-8601 (ms); null: none yet. */
      lastFireTime: string | null;
      /** @description When a ONE_SHOT job made its fire, UTC ISO-8601 (ms); it is then disabled for good (resume is a 409). */
      completedAt: string | null;
      /** @description The next 5 fire times from now, UTC ISO-8601 (ms) (FIXED_DELAY: assuming zero run time), even while paused. */
      nextFireTimes: string[];
      /** @description The same fire times as nextFireTimes, each with its wall-clock time in timeZone and, when a clock change moved or merged it, a note (as POST /api/schedules/preview answers). */
      nextFires: components['schemas']['FireTimeDto'][];
      /** @description The job's newest instance by fire time, any status (the first item of GET /api/jobs/{id}/instances: of a sharded fire, its highest shard); null: it has none. */
      lastRun: components['schemas']['LastRunDto'] | null;
      /** @description SHARDING_BROADCAST jobs: the stored shard placement (docs/dispatch.md "Shard placement"): how many shards wait for a move to a new node after the node set changed, and how many moved; null: not sharded, or no fire routed yet. */
      resharding: components['schemas']['ReshardingDto'] | null;
      /** @description Grows by one on every change of the definition (optimistic lock). */
      version: number;
      /** @description When the job was created, UTC ISO-8601 (ms). */
      createdAt: string;
      /** @description When the definition last changed, UTC ISO-8601 (ms). */
      updatedAt: string;
      /** @description Present when stored params or shardParams cannot be read (a corrupt row): they are shown as null; send new ones with PATCH. */
      note?: string;
    };
    JobPageDto: {
      /** @description How many jobs the query matches in all (every page). */
      total: number;
      /** @description This page, by code; at most `limit` jobs. */
      items: components['schemas']['JobViewDto'][];
    };
    ImportCrontabDto: {
      /**
       * @description File name, used in the job codes (<name>-L<line>), 1-64 of A-Z a-z 0-9 _ . -.
       * @example sysstat
       */
      fileName: string;
      /** @description The cron.d file content (m h dom mon dow user command), at most 262144 characters and 500 entries. */
      content: string;
      /** @description Zone the entries are read in (default UTC). */
      timeZone?: string;
      /** @description Create the jobs enabled (default false: review, then resume). A line whose user is not in mapUsers stays paused either way (pausedReason CRONTAB_USER). */
      enable?: boolean;
      /**
       * @description Crontab users (at most 32, each 1-32 characters) whose commands you vouch work as the app's shell uid, which is never the named user (README "The shell handler"). A line naming any other user is imported paused with pausedReason CRONTAB_USER, even with enable; resuming the job clears it. Default none.
       * @example [
       *       "root"
       *     ]
       */
      mapUsers?: string[];
    };
    RejectedLineDto: {
      /** @description The line number in the file, from 1. */
      lineNo: number;
      /** @description The line, cut to 200 characters (ending with … when cut). */
      line: string;
      /** @description Why it is not a job, cut to 300 characters. */
      reason: string;
    };
    CrontabImportResultDto: {
      /** @description Codes of the jobs created. */
      created: string[];
      /** @description Codes of the jobs updated (imported before). */
      updated: string[];
      /** @description The first 100 lines that are not jobs, in line order. */
      rejected: components['schemas']['RejectedLineDto'][];
      /** @description How many lines were rejected in all (rejected lists the first ones). */
      rejectedTotal: number;
      /** @description Codes of the jobs (created or updated) kept paused with pausedReason CRONTAB_USER: their line names a user not in mapUsers, and the command would run as the app's shell uid instead. */
      pausedForUser: string[];
    };
    UpdateJobDto: {
      /**
       * @description Code of the job, unique per app in its namespace (1-128 of A-Z a-z 0-9 _ . -).
       * @example health-probe
       */
      code?: string;
      /** @description Free text, at most 255 characters. */
      description?: string;
      /**
       * @description Handler name ('noop', 'http', 'shell' when enabled, or your own @JobHandler; 1-128 of A-Z a-z 0-9 _ . : -).
       * @example http
       */
      handler?: string;
      /**
       * @description CRON: triggerExpr is 5 fields (min hour dom mon dow) or 6 (leading seconds), in timeZone. FIXED_RATE: period in ms (1 s to 365 days); fires stay on the grid of the first fire. FIXED_DELAY: delay in ms (1 s to 365 days) counted from the previous finish. ONE_SHOT: an ISO-8601 instant with Z or an offset.
       * @enum {string}
       */
      triggerType?: 'CRON' | 'FIXED_RATE' | 'FIXED_DELAY' | 'ONE_SHOT';
      /**
       * @description Cron expression, period/delay in ms, or instant (see triggerType), at most 255 characters. One job may make at most JOB_MAX_INSTANCES_PER_MINUTE instances a minute (default 3000): its peak fires per minute (a cron's values in its seconds field, 1 for 5 fields; 60000 / period for FIXED_RATE and FIXED_DELAY) times shardTotal; beyond, a 400 names shardTotal or triggerExpr.
       * @example *\/10 * * * * *
       */
      triggerExpr?: string;
      /**
       * @description IANA time zone the cron expression is read in (default UTC). The host TZ never matters.
       * @example Europe/London
       */
      timeZone?: string;
      /**
       * @description Handler parameters (JSON object, at most 65535 bytes as JSON), given to every fire.
       * @example {
       *       "method": "GET",
       *       "url": "http://reports.internal:8080/health"
       *     }
       */
      params?: Record<string, unknown>;
      /**
       * @description How an executor is picked among the live nodes that advertise the handler: ROUND_ROBIN (default); RANDOM; LEAST_ACTIVE (lowest (queued + running)/capacity, read from the nodes' Redis lists at routing time); CONSISTENT_HASH (a ring of virtual nodes keyed by routingKey: the same key goes to the same node while the node set holds, and adding or removing one of N nodes moves about 1/N of the keys); FAILOVER (the first live node in node-id order); SHARDING_BROADCAST (each fire becomes shardTotal instances; shard i goes to position i mod N of the job's rendezvous-hash order of the live nodes).
       * @enum {string}
       */
      routingStrategy?:
        'ROUND_ROBIN' | 'RANDOM' | 'LEAST_ACTIVE' | 'CONSISTENT_HASH' | 'FAILOVER' | 'SHARDING_BROADCAST';
      /**
       * @description CONSISTENT_HASH: the name of a params field whose value is the routing key (so a trigger-now with other params can route elsewhere). Without it, or when the field is missing, the instance id is hashed.
       * @example tenant
       */
      routingKey?: string;
      /**
       * @description SHARDING_BROADCAST: instances per fire, 1-1000 (default 1). The handler sees shardIndex (0-based) and shardTotal; each shard of a fire runs once whatever the node count. Peak fires per minute times shardTotal may not exceed JOB_MAX_INSTANCES_PER_MINUTE (default 3000).
       * @example 3
       */
      shardTotal?: number;
      /**
       * @description SHARDING_BROADCAST: one JSON object per shard (exactly shardTotal), merged over params for that shard. At most 65535 bytes as JSON in all, and each shard's params with its entry merged over them at most 65535 bytes.
       * @example [
       *       {
       *         "region": "eu"
       *       },
       *       {
       *         "region": "us"
       *       },
       *       {
       *         "region": "ap"
       *       }
       *     ]
       */
      shardParams?: Record<string, unknown>[];
      /**
       * @description Fires missed while no scheduler led or the client was disabled (or lagging past MISFIRE_THRESHOLD_MS), recorded with triggerSource MISFIRE: FIRE_ONCE_NOW (default) runs once, for the latest missed time; SKIP runs none and records each as a CANCELLED MISFIRE_SKIP row; FIRE_ALL runs every missed time, oldest first, at most 100 per job.
       * @enum {string}
       */
      misfirePolicy?: 'FIRE_ONCE_NOW' | 'SKIP' | 'FIRE_ALL';
      /**
       * @description A fire while an earlier fire of the job is unfinished: ALLOW (default) runs both; SKIP records the new fire as CANCELLED (OVERLAP_SKIP); QUEUE keeps it WAITING (at most queueLimit) and runs fires one at a time in order, none while the job is paused; REPLACE cancels the unfinished ones (a running handler sees its signal abort at once) and runs the new one.
       * @enum {string}
       */
      overlapPolicy?: 'ALLOW' | 'SKIP' | 'QUEUE' | 'REPLACE';
      /**
       * @description Most instances of this job dispatched or running at once across the cluster (0 = no limit, the default; at most 10000). Over it an instance waits as WAITING and is released, oldest first, when one ends: never dropped. With overlapPolicy QUEUE it must be 0 or 1.
       * @example 2
       */
      maxConcurrency?: number;
      /**
       * @description Most fires of an overlapPolicy QUEUE job kept WAITING (1 … 1000, default 10; 1 buffers one fire). A fire past it is recorded CANCELLED with an OVERLAP_QUEUE_FULL note and not run. Stored with any policy, used only under QUEUE.
       * @example 1
       */
      queueLimit?: number;
      /**
       * @description Time limit of one attempt, ms (default 60000, max 24 h and at most the operator's MAX_RUN_TIME_MS). On expiry the signal aborts and the attempt is TIMEOUT. Not applied with timeoutMode HEARTBEAT.
       * @example 60000
       */
      timeoutMs?: number;
      /**
       * @description Heartbeat timeout, ms (docs/long-tasks.md): an attempt whose handler neither reports progress, checkpoints nor calls ctx.heartbeat() for this long is stuck and ends TIMEOUT with an error starting HEARTBEAT_TIMEOUT (retried like a timeout). 0 (default) = none; else 1000 up to timeoutMs. Required with timeoutMode HEARTBEAT: then 1000 up to MAX_RUN_TIME_MS.
       * @example 0
       */
      heartbeatTimeoutMs?: number;
      /**
       * @description Priority, 1 (lowest) to 5 (highest), default 3. Within its app's share of an executor, higher runs first; waiting raises it one level per PRIORITY_AGING_MS (10 s by default), so a lower one is never starved. A job copies its own to each instance.
       * @example 3
       */
      priority?: number;
      /**
       * @description What ends a long attempt (docs/long-tasks.md "Timeout modes"). HARD (default): timeoutMs, even while the handler reports progress or heartbeats. HEARTBEAT: only heartbeatTimeoutMs of silence (required then; the attempt ends TIMEOUT with an error starting HEARTBEAT_TIMEOUT), or the operator's MAX_RUN_TIME_MS (default 24 h; error starting MAX_RUN_TIME_MS); timeoutMs is kept but not applied.
       * @enum {string}
       */
      timeoutMode?: 'HARD' | 'HEARTBEAT';
      /** @description Retries after the first attempt (0-19, default 0). */
      retryMax?: number;
      /**
       * @description Base delay between attempts, ms (default 1000, max 1 h).
       * @example 1000
       */
      retryBackoffMs?: number;
      /**
       * @description FIXED (default): every retry waits retryBackoffMs. EXPONENTIAL: the wait doubles at each retry, up to 1 h, with ±20 % jitter.
       * @enum {string}
       */
      retryBackoffKind?: 'FIXED' | 'EXPONENTIAL';
      /** @description Whether the schedule runs (default true). Pause/resume change it. */
      enabled?: boolean;
      /**
       * @description Where the final state (SUCCESS, FAILED, TIMEOUT or CANCELLED) is POSTed once reached, signed with the app's secret (headers X-Tickwheel-Delivery, X-Tickwheel-Timestamp, X-Tickwheel-Signature; see docs/callbacks.md "Verifying"). http: or https:, at most 2048 characters, no user name or password. Checked against the egress policy (narrowed by the app's egressAllow) without DNS: loopback, localhost, link-local, metadata (169.254.169.254) and the cluster's own services are a 400 naming the field; the resolved address is checked again at send time. Omitted: the app's registration for the handler, else its default (POST /api/callbacks/register), else no callback. Part of the body an idempotent resubmit is compared on. Copied into each instance when it is created (a fire, trigger-now, backfill): a PATCH affects later instances only; PATCH with null clears it.
       * @example https://hooks.example.com/tickwheel
       */
      callbackUrl?: string | null;
      /** @description Per-job metrics (docs/observability.md "Job runs"): true counts this job's runs by final status in tickwheel_job_runs_total{app,job,status} (within 30 s of the change on every process). Default false; at most JOB_METRICS_MAX (default 100) jobs of the namespace have it on: one more is a 409 naming metrics, and nothing is written. null is refused (it is not false). */
      metrics?: boolean;
    };
    TriggerJobDto: {
      /** @description Parameters for this run only (default: the job's), at most 65535 bytes as JSON; with each shard's shardParams merged over them, too. */
      params?: Record<string, unknown>;
      /**
       * @description This run's priority instead of the job's. Priority, 1 (lowest) to 5 (highest), default 3. Within its app's share of an executor, higher runs first; waiting raises it one level per PRIORITY_AGING_MS (10 s by default), so a lower one is never starved. A job copies its own to each instance.
       * @example 3
       */
      priority?: number;
    };
    TriggerViewDto: {
      /** @description The task's requestId; for a job fire, one the scheduler made up. */
      requestId: string;
      /** @description The instance id (UUID): names a job fire in /api/jobs/{id}/instances/{instanceId}. */
      instanceId: string;
      /** @description The app that owns it: the task's submitter, or the job's owner (an admin names it with ?appId=). */
      appId: string;
      /** @description The handler that runs it. */
      handler: string;
      /** @description The task's taskName (docs/api.md "The design source's shape"); null: none, and for job fires. */
      taskName: string | null;
      /**
       * @description Where it is (docs/state-machine.md); SUCCESS, FAILED, TIMEOUT and CANCELLED are final.
       * @enum {string}
       */
      status: 'PENDING' | 'WAITING' | 'DISPATCHED' | 'RUNNING' | 'SUCCESS' | 'FAILED' | 'TIMEOUT' | 'CANCELLED';
      /** @description The current (or last) attempt, from 1; 0 before the first starts. */
      attempt: number;
      /** @description Most attempts it gets (1 + retries). */
      maxAttempts: number;
      /** @description The executor node it was routed to; null before. */
      nodeId: string | null;
      /** @description The job's code for a job fire; null for a task. */
      jobCode: string | null;
      /** @description Shard of the fire, 0-based (SHARDING_BROADCAST jobs; 0 otherwise). */
      shardIndex: number;
      /** @description Shards of the fire (1 unless SHARDING_BROADCAST). */
      shardTotal: number;
      /**
       * @description What created it: API for a task, SCHEDULE for a fire, MANUAL for trigger-now, BACKFILL...
       * @enum {string}
       */
      triggerSource: 'SCHEDULE' | 'API' | 'MANUAL' | 'BACKFILL' | 'RETRY' | 'MISFIRE';
      /** @description What the handler returned (JSON, at most 65,535 bytes); null: none. */
      result: Record<string, unknown> | null;
      /** @description The outcome's error, once final; an earlier attempt's error is in `attempts`. */
      error: string | null;
      /** @description W3C trace id (32 hex) of its run: the `traceparent` it was submitted with, else a new one; every log line about it carries it (docs/observability.md "Tracing"). */
      traceId: string;
      /**
       * @description The W3C `traceparent` its work continues: its trace id and the span of its submit or fire. Each attempt is a child span (the handler's ctx.traceparent, the `http` handler's header); callbacks carry a child of it.
       * @example 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01
       */
      traceparent: string;
      /** @description The scheduled fire time (a task: when it was submitted), UTC ISO-8601 (ms). */
      fireTime: string;
      /** @description When it becomes due to run (fire time + delayMs, or a retry backoff), UTC ISO-8601. */
      dueAt: string;
      /** @description When the row was written, UTC ISO-8601 (ms). */
      createdAt: string;
      /** @description When it was routed to a node, UTC ISO-8601; or null. */
      dispatchedAt: string | null;
      /** @description When its last attempt started, UTC ISO-8601; null: not. */
      startedAt: string | null;
      /** @description When it reached its final state, UTC ISO-8601; or null. */
      finishedAt: string | null;
      /** @description When the handler last stored a checkpoint (`ctx.checkpoint`, docs/long-tasks.md); null: none. The state itself is not shown. */
      checkpointAt: string | null;
      /** @description The attempt that stored the last checkpoint; the next attempt resumes from it. Null: none. */
      checkpointAttempt: number | null;
      /** @description The instance's own callback URL (the task's, or its job's when it was created); null: none. */
      callbackUrl: string | null;
      /** @description The callback delivery, written when the instance reached its final state with a callback URL (its own, else the app's registration for the handler, else its default); null before that, or when none applied. POST …/callback/redeliver sends it again. */
      callback: components['schemas']['CallbackViewDto'] | null;
      /** @description Last progress the handler reported (ctx.progress), a fraction 0..1; null: none reported. */
      progress: number | null;
      /** @description The note of that report (at most 256 characters). */
      progressNote: string | null;
      /** @description When that report was stored (at most one write per PROGRESS_WRITE_INTERVAL_MS per instance; later reports coalesce). */
      progressAt: string | null;
      /** @description Heartbeat timeout of its attempts, ms (docs/long-tasks.md); 0 = none. */
      heartbeatTimeoutMs: number;
      /** @description Its priority, 1 (lowest) to 5 (highest): its task's, or its job's when fired (a trigger-now may override). Within its app's share of an executor, higher runs first, aged by waiting (docs/dispatch.md "Priorities"). */
      priority: number;
      /**
       * @description HARD: timeoutMs ends an attempt; HEARTBEAT: only silence or MAX_RUN_TIME_MS (docs/long-tasks.md).
       * @enum {string}
       */
      timeoutMode: 'HARD' | 'HEARTBEAT';
      /** @description Every attempt so far, oldest first: on reads of one instance (GET of a task or of a job instance), not in lists. */
      attempts?: components['schemas']['AttemptViewDto'][];
      /** @description On reads of one instance: why a due PENDING instance is not moving, e.g. no live executor advertises its handler. On any read: which stored fields cannot be read (a corrupt row, e.g. params cut at 65,535 bytes), shown as null. */
      note?: string;
      /** @description Every shard of the fire, by shard index (SHARDING_BROADCAST jobs only). */
      shards?: components['schemas']['TaskViewDto'][];
    };
    BackfillDto: {
      /**
       * @description Start of the range, ISO-8601 with Z or an offset (inclusive).
       * @example 2026-11-29T00:00:00Z
       */
      from: string;
      /**
       * @description End of the range (inclusive); at most 1000 fires and 10000 instances (fires × shardTotal) in all.
       * @example 2026-11-29T06:00:00Z
       */
      to: string;
      /** @description true: answer what the backfill would do (the same figures, validation and 4xx) and write nothing: no instance, no audit row, nothing counted against the cap. Default false; null is refused (it is not false). */
      dryRun?: boolean;
    };
    BackfillResultDto: {
      /** @description Instances this backfill created (every shard counts). */
      created: number;
      /** @description Scheduled times of the range that had an instance already (left alone). */
      existing: number;
      /** @description The range's scheduled times, UTC ISO-8601 (ms), oldest first; at most 1000. */
      fireTimes: string[];
    };
    InstancePageDto: {
      /** @description Instances of the job in all (every page). */
      total: number;
      /** @description Newest fire first (then highest shard); each as GET of one instance without its attempts. */
      items: components['schemas']['TaskViewDto'][];
      /** @description Give as `cursor` for the next page; null when this page is the last. */
      nextCursor: string | null;
    };
    NodeQueueDto: {
      /** @description Instance ids pushed to the node and not yet claimed. */
      ready: number;
      /** @description Instance ids the node claimed and has not acknowledged yet. */
      processing: number;
    };
    NodeViewDto: {
      /** @description The node id, unique among live nodes (a new one at each start). */
      nodeId: string;
      /** @description Host name the node reported at start; null for a trusted executor when the caller is not admin. */
      host: string | null;
      /** @description The app owning an app worker's node (docs/workers.md); null for a trusted executor. */
      appId: string | null;
      /** @description Handler names the node advertises (it runs only these); a caller without `admin` sees, of a trusted executor, only the handlers of its jobs, of its unfinished work and the one it asked for (`?handler=`). */
      handlers: string[];
      /** @description Most attempts the node runs at once (EXECUTOR_CONCURRENCY, default 16). */
      capacity: number;
      /** @description Attempts running on the node at its last heartbeat; to a caller without `admin`, on a trusted executor, its own instances RUNNING there now. */
      active: number;
      /** @description Depth of the node queue now. */
      queue: components['schemas']['NodeQueueDto'];
      /** @description The last heartbeat, UTC ISO-8601 (ms); a node silent too long leaves the list. */
      lastBeat: string;
      /** @description When the node started, UTC ISO-8601 (ms). */
      startedAt: string;
      /** @description The database's clock minus the node's, ms, at its last check (every 30 s; positive: the node's clock is behind; 0 on SQLite). Over 500 ms either way the node fires, leases and beats off time: run NTP (docs/observability.md "Clock offset"). Null for an app worker (not measured), or for a caller without admin. */
      clockOffsetMs: number | null;
    };
    NodePageDto: {
      /** @description Live nodes shown (= items.length). */
      total: number;
      /** @description Every live node the caller may see (docs/api.md). */
      items: components['schemas']['NodeViewDto'][];
    };
    CreateClientDto: {
      /** @description Requests per second (token refill rate); null = the RATE_LIMIT_PER_SECOND default, 0 = unlimited. */
      rateLimit?: number | null;
      /** @description Token bucket size (burst); null = the RATE_LIMIT_BURST default. */
      rateBurst?: number | null;
      /** @description Most job definitions the app may own in a namespace; null = MAX_JOBS_PER_APP, 0 = no limit. */
      maxJobs?: number | null;
      /** @description Most unfinished tasks and fires the app may have; null = MAX_UNFINISHED_TASKS_PER_APP, 0 = no limit. */
      maxUnfinishedTasks?: number | null;
      /**
       * @description The app's own egress allow-list (hosts, IPs, CIDRs, optional :port; at most 64 entries of 255 characters): narrows the cluster's egress policy, never widens it. null = no narrowing.
       * @example [
       *       "api.example.com:443",
       *       "10.0.0.0/8"
       *     ]
       */
      egressAllow?: string[] | null;
      /**
       * @description The new app id: 3-64 of [A-Za-z0-9_.-], compared exactly.
       * @example billing
       */
      appId: string;
      /** @description What it may do (default tasks:read, tasks:write, jobs:read, jobs:write, nodes:read). admin implies all but shell. */
      scopes?: (
        'tasks:read' | 'tasks:write' | 'jobs:read' | 'jobs:write' | 'nodes:read' | 'shell' | 'worker' | 'admin'
      )[];
    };
    ClientCredentialsDto: {
      /** @description The app id: 3-64 of [A-Za-z0-9_.-], compared exactly. */
      appId: string;
      /** @description false: every request of the app is refused (401). */
      enabled: boolean;
      /** @description What the app may do (README "Tenancy and scopes"). */
      scopes: (
        'tasks:read' | 'tasks:write' | 'jobs:read' | 'jobs:write' | 'nodes:read' | 'shell' | 'worker' | 'admin'
      )[];
      /** @description Requests per second (token refill rate); null = the RATE_LIMIT_PER_SECOND default, 0 = unlimited. */
      rateLimit: number | null;
      /** @description Token bucket size (burst), requests; null = the RATE_LIMIT_BURST default. */
      rateBurst: number | null;
      /** @description Most job definitions the app may own in a namespace; null = MAX_JOBS_PER_APP, 0 = no limit. */
      maxJobs: number | null;
      /** @description Most unfinished tasks and fires the app may have; null = MAX_UNFINISHED_TASKS_PER_APP, 0 = no limit. */
      maxUnfinishedTasks: number | null;
      /** @description The app's own egress allow-list (hosts, IPs, CIDRs): narrows the cluster's egress policy; null = no narrowing. */
      egressAllow: string[] | null;
      /** @description When the client was created, UTC ISO-8601 (ms). */
      createdAt: string;
      /** @description When it last changed, UTC ISO-8601 (ms); null: never. */
      updatedAt: string | null;
      /** @description The secret (64 hex characters), shown only in this answer: store it. */
      secret: string;
    };
    ClientViewDto: {
      /** @description The app id: 3-64 of [A-Za-z0-9_.-], compared exactly. */
      appId: string;
      /** @description false: every request of the app is refused (401). */
      enabled: boolean;
      /** @description What the app may do (README "Tenancy and scopes"). */
      scopes: (
        'tasks:read' | 'tasks:write' | 'jobs:read' | 'jobs:write' | 'nodes:read' | 'shell' | 'worker' | 'admin'
      )[];
      /** @description Requests per second (token refill rate); null = the RATE_LIMIT_PER_SECOND default, 0 = unlimited. */
      rateLimit: number | null;
      /** @description Token bucket size (burst), requests; null = the RATE_LIMIT_BURST default. */
      rateBurst: number | null;
      /** @description Most job definitions the app may own in a namespace; null = MAX_JOBS_PER_APP, 0 = no limit. */
      maxJobs: number | null;
      /** @description Most unfinished tasks and fires the app may have; null = MAX_UNFINISHED_TASKS_PER_APP, 0 = no limit. */
      maxUnfinishedTasks: number | null;
      /** @description The app's own egress allow-list (hosts, IPs, CIDRs): narrows the cluster's egress policy; null = no narrowing. */
      egressAllow: string[] | null;
      /** @description When the client was created, UTC ISO-8601 (ms). */
      createdAt: string;
      /** @description When it last changed, UTC ISO-8601 (ms); null: never. */
      updatedAt: string | null;
    };
    ClientPageDto: {
      /** @description How many clients there are in all (every page). */
      total: number;
      /** @description This page, by app id; at most `limit`. */
      items: components['schemas']['ClientViewDto'][];
    };
    UpdateClientDto: {
      /** @description Requests per second (token refill rate); null = the RATE_LIMIT_PER_SECOND default, 0 = unlimited. */
      rateLimit?: number | null;
      /** @description Token bucket size (burst); null = the RATE_LIMIT_BURST default. */
      rateBurst?: number | null;
      /** @description Most job definitions the app may own in a namespace; null = MAX_JOBS_PER_APP, 0 = no limit. */
      maxJobs?: number | null;
      /** @description Most unfinished tasks and fires the app may have; null = MAX_UNFINISHED_TASKS_PER_APP, 0 = no limit. */
      maxUnfinishedTasks?: number | null;
      /**
       * @description The app's own egress allow-list (hosts, IPs, CIDRs, optional :port; at most 64 entries of 255 characters): narrows the cluster's egress policy, never widens it. null = no narrowing.
       * @example [
       *       "api.example.com:443",
       *       "10.0.0.0/8"
       *     ]
       */
      egressAllow?: string[] | null;
      /** @description The whole new list of scopes (replaces the old one). */
      scopes?: (
        'tasks:read' | 'tasks:write' | 'jobs:read' | 'jobs:write' | 'nodes:read' | 'shell' | 'worker' | 'admin'
      )[];
      /** @description false: every request of the app is refused (401), on other API pods within the 30-s client cache. */
      enabled?: boolean;
    };
    AuditRowDto: {
      /** @description The audit row id (UUID). */
      id: string;
      /** @description Who: the app that made the change (null: an operator's CLI or the first start). */
      appId: string | null;
      /** @description What was done, e.g. JOB_CREATE, TASK_CANCEL, CLIENT_ROTATE_SECRET. */
      action: string;
      /** @description job, task, client or crontab. */
      targetType: string;
      /** @description The id of what changed (job id, instance id, app id, file name). */
      targetId: string;
      /** @description What it was (secrets redacted), or null. */
      before: Record<string, unknown>;
      /** @description What it became (secrets redacted), or null. */
      after: Record<string, unknown>;
      /** @description When it was done, UTC ISO-8601 (ms). */
      createdAt: string;
    };
    AuditPageDto: {
      /** @description How many rows match the filters in all (every page). */
      total: number;
      /** @description This page, newest first; at most `limit` rows. */
      items: components['schemas']['AuditRowDto'][];
      /** @description Give as `cursor` for the next page; null when this page is the last. */
      nextCursor: string | null;
    };
    CallbackHostViewDto: {
      /** @description host:port, lower case. */
      host: string;
      /**
       * @description down: after CALLBACK_HOST_DOWN_AFTER (3) failed tries in a row of this app's, its deliveries to the host end CALLBACK_FAILED (HOST_DOWN: …) but one kept for the probe; up again on the first answer (a probe, a redeliver by host).
       * @enum {string}
       */
      state: 'up' | 'down';
      /** @description Failed tries in a row (timeouts, network errors, 5xx); 0 after an answer. */
      consecutiveFailures: number;
      /** @description Since when it is down; null while up. */
      downSince: string | null;
      /** @description When it is probed next while down; else null. */
      nextProbeAt: string | null;
      /** @description The last failed try or probe: why it failed. */
      lastError: string | null;
      /** @description When the state last changed. */
      updatedAt: string;
    };
    CallbackHostPageDto: {
      /** @description Hosts of the app in all (every page). */
      total: number;
      /** @description This page: the down hosts first, then by host. A host is listed once one of the app's tries to it failed; one never failing has no row (up). */
      items: components['schemas']['CallbackHostViewDto'][];
    };
    RedeliverHostDto: {
      /**
       * @description The receiving host:port, port explicit (3-300 characters), as a delivery's `host` shows it (GET /api/callbacks/hosts, /api/callbacks/deliveries); any letter case.
       * @example hooks.example.com:443
       */
      host: string;
      /**
       * @description Redeliver the deliveries that ended CALLBACK_FAILED at or after this instant: ISO-8601 with Z or an offset, at most 7 days back, not in the future (a minute of clock skew allowed).
       * @example 2026-12-01T10:00:00Z
       */
      since: string;
    };
    RedeliverHostResultDto: {
      /** @description Deliveries sent again from the start (at most 10000 per call). */
      redelivered: number;
      /** @description More deliveries match: call again (those redelivered no longer match). */
      more: boolean;
    };
    DeliveryViewDto: {
      /** @description The delivery id, sent as X-Tickwheel-Delivery on every try and redelivery: receivers deduplicate on it. */
      deliveryId: string;
      /** @description Where it is sent (the task or job URL, else the registration that applied). */
      url: string;
      /**
       * @description PENDING: written, not tried yet; RETRYING: tried and failed, tried again at nextAttemptAt (after 5 s, 30 s, 2 min, 10 min, 30 min by default, CALLBACK_RETRY_DELAYS_MS); DELIVERED: the receiver answered 2xx; CALLBACK_FAILED (final): tries spent, a 4xx other than 408/429 or a 3xx (not retried), an egress refusal of the resolved address, or older than CALLBACK_MAX_AGE_MS (24 h).
       * @enum {string}
       */
      status: 'PENDING' | 'RETRYING' | 'DELIVERED' | 'CALLBACK_FAILED';
      /** @description Tries made so far (a probe of a host marked down is not counted). */
      attempts: number;
      /** @description The last try's HTTP status; null before an answer. */
      lastStatusCode: number | null;
      /** @description Why the last try failed (e.g. 'timeout'). */
      lastError: string | null;
      /** @description When it is tried next (PENDING, RETRYING); else null. */
      nextAttemptAt: string | null;
      /** @description When the receiver answered 2xx (DELIVERED). */
      deliveredAt: string | null;
      /** @description The instance whose final state it carries (UUID). */
      instanceId: string;
      /** @description The app whose callback it is (the instance owner). */
      appId: string;
      /** @description That instance's requestId (GET /api/tasks/{requestId}); null if the instance is gone. */
      requestId: string | null;
      /** @description The job the instance is a fire of; null for a task. */
      jobId: string | null;
      /** @description host:port of url, lower case: the unit of per-host limits and of "host down". */
      host: string;
      /** @description When it was written (the instance reached its final state), UTC ISO-8601 (ms). */
      createdAt: string;
      /** @description When it last changed (a try, a redeliver), UTC ISO-8601 (ms). */
      updatedAt: string;
    };
    DeliveryPageDto: {
      /** @description How many deliveries match the filters in all (every page). */
      total: number;
      /** @description This page, newest createdAt first (then by delivery id); at most `limit`. */
      items: components['schemas']['DeliveryViewDto'][];
      /** @description Give as `cursor` for the next page; null when this page is the last. */
      nextCursor: string | null;
    };
    RegisterCallbackDto: {
      /**
       * @description Where the app's final states are POSTed (signed: see docs/callbacks.md "Verifying"). http: or https:, at most 2048 characters, no user name or password; checked against the egress policy (narrowed by the app's egressAllow) without DNS: loopback, localhost, link-local, metadata (169.254.169.254) and the cluster's own services are a 400 naming url.
       * @example https://hooks.example.com/tickwheel
       */
      url: string;
      /**
       * @description The handler name this URL is for (1-128 of A-Z a-z 0-9 _ . : -); omitted: the app's default, used for every handler without its own. A task's or job's callbackUrl wins over both.
       * @example http
       */
      handler?: string;
    };
    CallbackRegistrationViewDto: {
      /** @description The handler name; null for the app's default. */
      handler: string | null;
      /** @description Where final states are POSTed (http or https, at most 2048 characters). */
      url: string;
      /** @description When it was first registered, UTC ISO-8601 (ms). */
      createdAt: string;
      /** @description When its URL last changed, UTC ISO-8601 (ms). */
      updatedAt: string;
    };
    CallbackRegistrationListDto: {
      /** @description Registrations in all (= items.length: one page, at most 1000). */
      total: number;
      /** @description The app's registrations (at most 1000), the default first, then by handler. */
      items: components['schemas']['CallbackRegistrationViewDto'][];
    };
    HerdDto: {
      /** @description The second, UTC ISO-8601 (its start). */
      at: string;
      /** @description Fires in it (a fire of a sharded job counts once). */
      fires: number;
      /** @description Codes of its jobs, the first 10 by code. */
      jobs: string[];
    };
    ScheduleLoadDto: {
      /** @description Start of the span: the start of the current minute, UTC ISO-8601. */
      from: string;
      /** @description End of the span (exclusive): from + hours, UTC ISO-8601. */
      to: string;
      /**
       * @description Width of one bucket, ms: always 60000 (a minute).
       * @example 60000
       */
      bucketMs: number;
      /** @description Fires per minute, from `from`, hours × 60 of them. A fire of a sharded job counts once (it makes shardTotal instances). */
      buckets: number[];
      /** @description Seconds where at least `herd` fires fall together: the 50 largest (ties: the earlier), in time order. Fires counted from a job's rate (see estimatedJobs) are in none. */
      herds: components['schemas']['HerdDto'][];
      /** @description Jobs counted: enabled, with a next fire and a schedule that computes. */
      jobs: number;
      /** @description Of them, jobs denser than the per-schedule cap (2,000 fires iterated, less when many schedules share a budget of 50,000): past the cap, the job's fires are counted from its rate over the span it was iterated. */
      estimatedJobs: number;
    };
    SchedulePreviewDto: {
      /**
       * @description How triggerExpr is read, as on a job (default CRON). FIXED_RATE and FIXED_DELAY count from `from`; FIXED_DELAY assumes each run takes no time (the next fire = the previous fire + delay), since the real next fire waits for the finish. ONE_SHOT answers its instant when after `from`, else nothing.
       * @default CRON
       * @enum {string}
       */
      triggerType: 'CRON' | 'FIXED_RATE' | 'FIXED_DELAY' | 'ONE_SHOT';
      /**
       * @description The expression, with the rules of a job's triggerExpr (at most 255 characters): CRON 5 fields (min hour dom mon dow) or 6 (seconds first), read in timeZone; FIXED_RATE / FIXED_DELAY a period in ms (1000 to 31536000000, digits only); ONE_SHOT an ISO-8601 instant with Z or an offset. A cron with no fire within 8 years of 2024-01-01 (e.g. 30 February) is a 400 naming triggerExpr.
       * @example 0 30 2 * * *
       */
      triggerExpr: string;
      /**
       * @description IANA time zone the cron is read in (default UTC), as on a job; the host TZ never matters.
       * @example America/New_York
       */
      timeZone?: string;
      /**
       * @description The instant to preview from (exclusive), ISO-8601 with Z or an offset, from 1970-01-01 to before 3000-01-01 UTC (default: now).
       * @example 2026-03-07T00:00:00Z
       */
      from?: string;
      /**
       * @description How many fire times to answer, 1-100 (default 10). Fewer come back when the trigger stops (ONE_SHOT) or a cron has no next fire within 8 years (the scheduler search horizon).
       * @default 10
       * @example 3
       */
      count: number;
    };
    SchedulePreviewViewDto: {
      /**
       * @description The trigger type previewed (CRON when not given).
       * @enum {string}
       */
      triggerType: 'CRON' | 'FIXED_RATE' | 'FIXED_DELAY' | 'ONE_SHOT';
      /**
       * @description The expression previewed, trimmed.
       * @example 0 30 2 * * *
       */
      triggerExpr: string;
      /**
       * @description The zone the times were computed in (UTC when not given).
       * @example Asia/Tokyo
       */
      timeZone: string;
      /**
       * @description The instant previewed from (exclusive), ISO-8601 UTC with milliseconds.
       * @example 2026-03-07T00:00:00.000Z
       */
      from: string;
      /** @description The next fire times after `from`, ascending, as the scheduler computes them (its own search); at most count. */
      fireTimes: components['schemas']['FireTimeDto'][];
    };
    RegisterWorkerDto: {
      /** @description Handler names the worker runs (each 1-128 of [A-Za-z0-9_.:-]); only its app's instances of these are routed to it. The built-in noop, http and shell are refused (400 naming handlers). */
      handlers: string[];
      /** @description Most attempts the worker runs at once; claims never leave it more than twice as many RUNNING (its handlers and the finishes on their way). */
      capacity: number;
      /** @description The worker host name, shown in /api/nodes. */
      host?: string;
    };
    WorkerRegisteredDto: {
      /** @description The node id (server-made, `w-<appId>-<hex>`); every other route names it. */
      nodeId: string;
      /** @description Heartbeat at least this often; silent for nodeTimeoutMs, the node is gone. */
      heartbeatIntervalMs: number;
      /** @description A claim or renewal leases an attempt for this long. */
      leaseMs: number;
      /** @description Renew the leases of running attempts this often. */
      leaseRenewMs: number;
      /** @description Without a heartbeat this long the node expires (404; register again). */
      nodeTimeoutMs: number;
      /** @description Longest waitMs of a claim. */
      maxClaimWaitMs: number;
    };
    WorkerHeartbeatDto: {
      /** @description Attempts running on the worker now (at most its capacity). */
      active: number;
      /** @description True while draining: no new work is routed to the node. */
      draining?: boolean;
    };
    WorkerClaimDto: {
      /** @description Most attempts to claim. */
      max: number;
      /** @description How long to wait for work when none is queued (long poll), ms. */
      waitMs: number;
    };
    WorkerClaimAnswerDto: {
      /** @description The claimed attempts (docs/workers.md). */
      items: Record<string, unknown>[];
    };
    AttemptRefDto: {
      /** @description The instance id. */
      instanceId: string;
      /** @description The fencing token the claim issued for this attempt. */
      fencingToken: number;
    };
    WorkerLeasesDto: {
      /** @description The attempts to renew. */
      attempts: components['schemas']['AttemptRefDto'][];
    };
    LostLeaseDto: {
      /** @description The instance id. */
      instanceId: string;
      /** @description The fencing token the claim issued for this attempt. */
      fencingToken: number;
      /**
       * @description LEASE_LOST: the row is no longer this attempt’s; REVOKED: cancelled. Abort the handler.
       * @enum {string}
       */
      reason: 'LEASE_LOST' | 'REVOKED';
    };
    WorkerLeasesAnswerDto: {
      /** @description The renewed leases now end at this time (epoch ms UTC). */
      leaseUntil: number;
      /** @description The named attempts whose lease was not renewed. */
      lost: components['schemas']['LostLeaseDto'][];
    };
    WorkerCheckpointDto: {
      /** @description The fencing token the claim issued for this attempt. */
      fencingToken: number;
      /** @description Any JSON, at most CHECKPOINT_MAX_BYTES as JSON text (400 naming state beyond). */
      state: Record<string, unknown>;
    };
    WorkerProgressDto: {
      /** @description The fencing token the claim issued for this attempt. */
      fencingToken: number;
      /** @description How far the attempt is, 0..1. */
      fraction: number;
      /** @description A short note shown with the progress. */
      note?: string;
    };
    WorkerLogLineDto: {
      /**
       * @description The line’s level.
       * @enum {string}
       */
      level: 'info' | 'warn' | 'error';
      /** @description The line. */
      message: string;
      /** @description When it was logged, epoch ms UTC (kept within the attempt’s start and now). */
      at: number;
    };
    WorkerLogsDto: {
      /** @description The fencing token the claim issued for this attempt. */
      fencingToken: number;
      /** @description The lines, oldest first. */
      lines: components['schemas']['WorkerLogLineDto'][];
    };
    WorkerFinishDto: {
      /** @description The fencing token the claim issued for this attempt. */
      fencingToken: number;
      /**
       * @description How the attempt ended: SUCCESS (result), FAILED (error; retryable false fails it for good), TIMEOUT, HEARTBEAT_TIMEOUT, SHUTDOWN (handed back, no attempt used), CANCELLED (after a REVOKED lease).
       * @enum {string}
       */
      outcome: 'SUCCESS' | 'FAILED' | 'TIMEOUT' | 'HEARTBEAT_TIMEOUT' | 'SHUTDOWN' | 'CANCELLED';
      /** @description The handler’s result (stored bounded, as an executor’s). */
      result?: Record<string, unknown>;
      /** @description What failed (FAILED). */
      error?: string;
      /** @description FAILED only: false fails the instance without a retry. */
      retryable?: boolean;
      /** @description When the handler really returned, epoch ms UTC. */
      handlerEndedAt?: number;
    };
    WorkerFinishAnswerDto: {
      /** @description SUCCESS, FAILED, TIMEOUT, CANCELLED, or PENDING (a retry or hand-back). */
      status: string;
      /** @description True when the instance will not run again. */
      final: boolean;
    };
    WorkerFinishItemDto: {
      /** @description The fencing token the claim issued for this attempt. */
      fencingToken: number;
      /**
       * @description How the attempt ended: SUCCESS (result), FAILED (error; retryable false fails it for good), TIMEOUT, HEARTBEAT_TIMEOUT, SHUTDOWN (handed back, no attempt used), CANCELLED (after a REVOKED lease).
       * @enum {string}
       */
      outcome: 'SUCCESS' | 'FAILED' | 'TIMEOUT' | 'HEARTBEAT_TIMEOUT' | 'SHUTDOWN' | 'CANCELLED';
      /** @description The handler’s result (stored bounded, as an executor’s). */
      result?: Record<string, unknown>;
      /** @description What failed (FAILED). */
      error?: string;
      /** @description FAILED only: false fails the instance without a retry. */
      retryable?: boolean;
      /** @description When the handler really returned, epoch ms UTC. */
      handlerEndedAt?: number;
      /** @description The instance id. */
      instanceId: string;
    };
    WorkerFinishesDto: {
      /** @description The finishes, each of a different instance (a repeated instanceId is a 400). */
      items: components['schemas']['WorkerFinishItemDto'][];
    };
    WorkerFinishedItemDto: {
      /** @description The instance id, as sent. */
      instanceId: string;
      /** @description The fencing token, as sent. */
      fencingToken: number;
      /**
       * @description What the single finish route would have answered: 200 (recorded: status, final), 404 (not this app’s, or another node’s running attempt) or 409 (stale token: nothing was written).
       * @enum {number}
       */
      code: 200 | 404 | 409;
      /** @description On 200: the row’s status after the write. */
      status?: string;
      /** @description On 200: true when the instance will not run again. */
      final?: boolean;
      /** @description On 404 and 409: why. */
      detail?: string;
    };
    WorkerFinishesAnswerDto: {
      /** @description How each finish went, in the order sent. */
      items: components['schemas']['WorkerFinishedItemDto'][];
    };
    WhoamiDto: {
      /** @description The app the request was signed as (X-App-Id). */
      appId: string;
      /** @description This deployment's namespace (TICKWHEEL_NAMESPACE): what an admin sees all of. */
      namespace: string;
      /** @description The client's scopes, in the order docs/api.md "Scopes" lists them. */
      scopes: (
        'tasks:read' | 'tasks:write' | 'jobs:read' | 'jobs:write' | 'nodes:read' | 'shell' | 'worker' | 'admin'
      )[];
      /** @description Whether the client holds `admin` (every app of the namespace, ?appId= filters). */
      admin: boolean;
    };
    StatusCountDto: {
      /**
       * @description An instance status.
       * @example SUCCESS
       */
      status: string;
      /** @description How many instances. */
      count: number;
    };
    HourCountsDto: {
      /** @description The hour, UTC ISO-8601 (on the hour); the last one is the current, partial hour. */
      hourStart: string;
      /** @description Instances that reached each final status in this hour: SUCCESS, FAILED, TIMEOUT, CANCELLED. */
      counts: components['schemas']['StatusCountDto'][];
    };
    RunningInstanceDto: {
      /** @description The instance id (UUID). */
      instanceId: string;
      /** @description The task's requestId (a fire's: its instance id). */
      requestId: string;
      /** @description The app whose instance it is. */
      appId: string;
      /** @description The job it is a fire of; null for a task. */
      jobId: string | null;
      /** @description The job's code; null for a task. */
      jobCode: string | null;
      /** @description The handler it runs. */
      handler: string;
      /** @description The executor or app worker running it. */
      nodeId: string | null;
      /** @description The attempt running (1 is the first). */
      attempt: number;
      /** @description When this attempt started, UTC ISO-8601 (ms). */
      startedAt: string | null;
      /** @description Last reported progress, 0..1; null: none. */
      progress: number | null;
      /** @description The progress report's note; null: none. */
      progressNote: string | null;
      /** @description When progress was last reported, UTC ISO-8601 (ms). */
      progressAt: string | null;
    };
    OverviewDto: {
      /** @description Start of the window: the first hour of `hourly`, UTC ISO-8601. */
      windowStart: string;
      /** @description End of the window: the time of the read, UTC ISO-8601 (ms). */
      windowEnd: string;
      /** @description Instances (jobs' fires and tasks) that reached a final state in the window, by status: SUCCESS, FAILED, TIMEOUT, CANCELLED, each listed (0 included); the sums of `hourly`. */
      finished: components['schemas']['StatusCountDto'][];
      /** @description (FAILED + TIMEOUT) / (every finished instance but CANCELLED), 0..1; null when that is 0. */
      failureRate: number | null;
      /** @description The window by hour (finished_at rounded down to the hour, UTC), 24 buckets, oldest first. */
      hourly: components['schemas']['HourCountsDto'][];
      /** @description Instances RUNNING now. */
      running: number;
      /** @description Up to 20 of the RUNNING instances, newest start first. */
      runningNow: components['schemas']['RunningInstanceDto'][];
      /** @description Instances not running yet, by status: PENDING (delayed tasks and fires written ahead of their time included), WAITING (held by maxConcurrency or overlap QUEUE), DISPATCHED (on an executor queue). */
      queued: components['schemas']['StatusCountDto'][];
    };
    CreateNotificationRuleDto: {
      /**
       * @description FINAL_FAILURE: a run or task ended FAILED or TIMEOUT. CONSECUTIVE_FAILURES: a job failed `count` times in a row (once per streak). RECOVERY: a job succeeded after failures. DEADLINE: a job run had not finished `withinMs` after its fire, or by `finishBy` (HH:MM in `timeZone`). LATE_START: a job run started (or had not started) `thresholdMs` after its fire. HANDLER_UNAVAILABLE: work waited `thresholdMs` for a handler no live executor or app worker advertises. CALLBACK_HOST_FAILING: callbacks of the app to a host were marked down (3 failures in a row).
       * @enum {string}
       */
      kind:
        | 'FINAL_FAILURE'
        | 'CONSECUTIVE_FAILURES'
        | 'RECOVERY'
        | 'DEADLINE'
        | 'LATE_START'
        | 'HANDLER_UNAVAILABLE'
        | 'CALLBACK_HOST_FAILING';
      /** @description Only this job (omitted: every job of the app; tasks too where the kind applies to them). */
      jobCode?: string;
      /** @description Only runs and tasks of this handler. */
      handler?: string;
      /**
       * @description FINAL_FAILURE only: jobs, tasks or both.
       * @enum {string}
       */
      target?: 'JOB' | 'TASK' | 'ANY';
      /** @description CONSECUTIVE_FAILURES only (required there): failures in a row. */
      count?: number;
      /** @description DEADLINE: the run must finish this long after its fire, ms. */
      withinMs?: number;
      /**
       * @description DEADLINE: the run must finish by this wall time (the first after its fire).
       * @example 06:00
       */
      finishBy?: string;
      /**
       * @description The IANA zone of finishBy (default UTC).
       * @example Europe/Paris
       */
      timeZone?: string;
      /** @description LATE_START (default 500) and HANDLER_UNAVAILABLE (default 60000, at least 1000): ms. */
      thresholdMs?: number;
      /**
       * @description Up to 5: {"type":"webhook","url"} (signed JSON, as callbacks), {"type":"chat","url"} (a Slack or Mattermost incoming webhook), {"type":"email","to":[1-10 addresses]} (needs SMTP_URL). URLs pass the egress policy as callback URLs do. None: messages are recorded and listed only.
       * @example [
       *       {
       *         "type": "email",
       *         "to": [
       *           "team@example.com"
       *         ]
       *       }
       *     ]
       */
      channels?: (
        | {
            /** @enum {unknown} */
            type: 'webhook' | 'chat';
            url: string;
          }
        | {
            /** @enum {unknown} */
            type: 'email';
            to: string[];
          }
      )[];
      /** @description After a message, further events of the same group wait this long and go out as one message (ms, default 600000; 0: every event its own message). */
      quietMs?: number;
      /**
       * @description SUBJECT (default): one stream per job, handler or host; RULE: one.
       * @enum {string}
       */
      groupBy?: 'SUBJECT' | 'RULE';
      /** @description false: kept but not applied (default true). */
      enabled?: boolean;
      /** @description The rule's name, unique in the app (1-100 of A-Z a-z 0-9 _ . -). */
      name: string;
    };
    NotificationRuleViewDto: {
      /**
       * @description FINAL_FAILURE: a run or task ended FAILED or TIMEOUT. CONSECUTIVE_FAILURES: a job failed `count` times in a row (once per streak). RECOVERY: a job succeeded after failures. DEADLINE: a job run had not finished `withinMs` after its fire, or by `finishBy` (HH:MM in `timeZone`). LATE_START: a job run started (or had not started) `thresholdMs` after its fire. HANDLER_UNAVAILABLE: work waited `thresholdMs` for a handler no live executor or app worker advertises. CALLBACK_HOST_FAILING: callbacks of the app to a host were marked down (3 failures in a row).
       * @enum {string}
       */
      kind:
        | 'FINAL_FAILURE'
        | 'CONSECUTIVE_FAILURES'
        | 'RECOVERY'
        | 'DEADLINE'
        | 'LATE_START'
        | 'HANDLER_UNAVAILABLE'
        | 'CALLBACK_HOST_FAILING';
      /** @description Only this job (omitted: every job of the app; tasks too where the kind applies to them). */
      jobCode?: string;
      /** @description Only runs and tasks of this handler. */
      handler?: string;
      /**
       * @description FINAL_FAILURE only: jobs, tasks or both.
       * @enum {string}
       */
      target?: 'JOB' | 'TASK' | 'ANY';
      /** @description CONSECUTIVE_FAILURES only (required there): failures in a row. */
      count?: number;
      /** @description DEADLINE: the run must finish this long after its fire, ms. */
      withinMs?: number;
      /**
       * @description DEADLINE: the run must finish by this wall time (the first after its fire).
       * @example 06:00
       */
      finishBy?: string;
      /**
       * @description The IANA zone of finishBy (default UTC).
       * @example Europe/Paris
       */
      timeZone?: string;
      /** @description LATE_START (default 500) and HANDLER_UNAVAILABLE (default 60000, at least 1000): ms. */
      thresholdMs?: number;
      /**
       * @description Where its messages go (none: recorded and listed only).
       * @example [
       *       {
       *         "type": "email",
       *         "to": [
       *           "team@example.com"
       *         ]
       *       }
       *     ]
       */
      channels?: (
        | {
            /** @enum {unknown} */
            type: 'webhook' | 'chat';
            url: string;
          }
        | {
            /** @enum {unknown} */
            type: 'email';
            to: string[];
          }
      )[];
      /** @description The quiet period, ms. */
      quietMs?: number;
      /**
       * @description SUBJECT or RULE.
       * @enum {string}
       */
      groupBy?: 'SUBJECT' | 'RULE';
      /** @description Whether it is applied. */
      enabled?: boolean;
      /** @description The rule's name, unique in the app (1-100 of A-Z a-z 0-9 _ . -). */
      name: string;
      /** @description The owning app, or '*' for a namespace default. */
      appId: string;
      /** @description When it was created, ISO-8601 UTC. */
      createdAt: string;
      /** @description When it was last set, ISO-8601 UTC. */
      updatedAt: string;
    };
    NotificationRuleBodyDto: {
      /**
       * @description FINAL_FAILURE: a run or task ended FAILED or TIMEOUT. CONSECUTIVE_FAILURES: a job failed `count` times in a row (once per streak). RECOVERY: a job succeeded after failures. DEADLINE: a job run had not finished `withinMs` after its fire, or by `finishBy` (HH:MM in `timeZone`). LATE_START: a job run started (or had not started) `thresholdMs` after its fire. HANDLER_UNAVAILABLE: work waited `thresholdMs` for a handler no live executor or app worker advertises. CALLBACK_HOST_FAILING: callbacks of the app to a host were marked down (3 failures in a row).
       * @enum {string}
       */
      kind:
        | 'FINAL_FAILURE'
        | 'CONSECUTIVE_FAILURES'
        | 'RECOVERY'
        | 'DEADLINE'
        | 'LATE_START'
        | 'HANDLER_UNAVAILABLE'
        | 'CALLBACK_HOST_FAILING';
      /** @description Only this job (omitted: every job of the app; tasks too where the kind applies to them). */
      jobCode?: string;
      /** @description Only runs and tasks of this handler. */
      handler?: string;
      /**
       * @description FINAL_FAILURE only: jobs, tasks or both.
       * @enum {string}
       */
      target?: 'JOB' | 'TASK' | 'ANY';
      /** @description CONSECUTIVE_FAILURES only (required there): failures in a row. */
      count?: number;
      /** @description DEADLINE: the run must finish this long after its fire, ms. */
      withinMs?: number;
      /**
       * @description DEADLINE: the run must finish by this wall time (the first after its fire).
       * @example 06:00
       */
      finishBy?: string;
      /**
       * @description The IANA zone of finishBy (default UTC).
       * @example Europe/Paris
       */
      timeZone?: string;
      /** @description LATE_START (default 500) and HANDLER_UNAVAILABLE (default 60000, at least 1000): ms. */
      thresholdMs?: number;
      /**
       * @description Up to 5: {"type":"webhook","url"} (signed JSON, as callbacks), {"type":"chat","url"} (a Slack or Mattermost incoming webhook), {"type":"email","to":[1-10 addresses]} (needs SMTP_URL). URLs pass the egress policy as callback URLs do. None: messages are recorded and listed only.
       * @example [
       *       {
       *         "type": "email",
       *         "to": [
       *           "team@example.com"
       *         ]
       *       }
       *     ]
       */
      channels?: (
        | {
            /** @enum {unknown} */
            type: 'webhook' | 'chat';
            url: string;
          }
        | {
            /** @enum {unknown} */
            type: 'email';
            to: string[];
          }
      )[];
      /** @description After a message, further events of the same group wait this long and go out as one message (ms, default 600000; 0: every event its own message). */
      quietMs?: number;
      /**
       * @description SUBJECT (default): one stream per job, handler or host; RULE: one.
       * @enum {string}
       */
      groupBy?: 'SUBJECT' | 'RULE';
      /** @description false: kept but not applied (default true). */
      enabled?: boolean;
    };
    NotificationRuleListDto: {
      /** @description How many rules. */
      total: number;
      /** @description The rules, by name. */
      items: components['schemas']['NotificationRuleViewDto'][];
    };
    RuleTestDto: {
      /** @description The message written; GET /api/notifications lists it with its deliveries. */
      notificationId: string;
    };
    NotificationDeliveryViewDto: {
      /** @description The delivery id (UUID): X-Tickwheel-Delivery of a webhook, the same on every try. */
      id: string;
      /**
       * @description The channel type.
       * @enum {string}
       */
      channel: 'webhook' | 'chat' | 'email';
      /** @description The URL without its query string, or the e-mail addresses comma-separated. */
      target: string;
      /**
       * @description PENDING: not tried yet; RETRYING: tried again at nextAttemptAt (NOTIFY_RETRY_DELAYS_MS); DELIVERED; FAILED (final): tries spent, a 3xx or a 4xx other than 408/429, an egress refusal, an SMTP 5xx, SMTP_NOT_CONFIGURED or a stored row that cannot be sent.
       * @enum {string}
       */
      state: 'PENDING' | 'RETRYING' | 'DELIVERED' | 'FAILED';
      /** @description Tries made. */
      attempts: number;
      /** @description HTTP status or SMTP reply code of the last try. */
      lastStatusCode: number | null;
      /** @description Why the last try failed. */
      lastError: string | null;
      /** @description The next try, while PENDING or RETRYING. */
      nextAttemptAt: string | null;
      /** @description When it was delivered. */
      deliveredAt: string | null;
    };
    NotificationViewDto: {
      /** @description The message id (UUID): notificationId of a webhook body. */
      id: string;
      /** @description The app the message is for. */
      appId: string;
      /** @description The rule that made it. */
      rule: string;
      /**
       * @description The kind of the rule (docs/notifications.md "Rules").
       * @enum {string}
       */
      kind:
        | 'FINAL_FAILURE'
        | 'CONSECUTIVE_FAILURES'
        | 'RECOVERY'
        | 'DEADLINE'
        | 'LATE_START'
        | 'HANDLER_UNAVAILABLE'
        | 'CALLBACK_HOST_FAILING';
      /** @description One line saying what happened. */
      title: string;
      /** @description The group's key: the job, handler or host, or '*' for a whole rule. */
      groupKey: string;
      /**
       * @description OPEN: collecting events until sendAt; SENT: closed, deliveries written.
       * @enum {string}
       */
      state: 'OPEN' | 'SENT';
      /** @description Events in the message (events holds the first of them). */
      eventCount: number;
      /** @description When its first event happened. */
      firstEventAt: string;
      /** @description When its last event happened. */
      lastEventAt: string;
      /** @description When it is (or was) due to be sent. */
      sendAt: string;
      /** @description When it was sent (closed); null while OPEN. */
      sentAt: string | null;
      /** @description The first events (at, jobCode, requestId, instanceId, handler, status, error, host, detail). */
      events: {
        [key: string]: unknown;
      }[];
      /** @description One per channel in channel order; [] while OPEN. */
      deliveries: components['schemas']['NotificationDeliveryViewDto'][];
    };
    NotificationPageDto: {
      /** @description How many messages match the filters in all (every page). */
      total: number;
      /** @description Newest first (then by id); at most `limit`. */
      items: components['schemas']['NotificationViewDto'][];
      /** @description Give as `cursor` for the next page; null when this page is the last. */
      nextCursor: string | null;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  HealthController_live: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['LiveDto'];
        };
      };
    };
  };
  HealthController_ready: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Database and Redis answer: status ok. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReadyDto'];
        };
      };
      /** @description A dependency is down: status error (not problem+json). */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReadyDto'];
        };
      };
    };
  };
  TasksController_recent: {
    parameters: {
      query?: {
        /** @description Items to skip, 0-100000. Not with `cursor`. */
        offset?: number;
        /** @description Items to return, 1-500. */
        limit?: number;
        /** @description Opaque: the `nextCursor` of the page before. Continues after the last item of that page (keyset, so rows added meanwhile neither repeat nor shift the pages); not combined with `offset`. A cursor this list did not give is a 400 naming `cursor`. */
        cursor?: string;
        /** @description Admins only: this app's tasks (default for an admin: every app's of the namespace; for anyone else: its own). Another app's id without the admin scope is a 403. */
        appId?: string;
        /** @description Tasks in this status now; an unknown one is a 400. */
        status?: 'PENDING' | 'WAITING' | 'DISPATCHED' | 'RUNNING' | 'SUCCESS' | 'FAILED' | 'TIMEOUT' | 'CANCELLED';
        /** @description Tasks of this handler. */
        handler?: string;
        /** @description Tasks submitted at or after this ISO-8601 instant (createdAt). */
        from?: string;
        /** @description Tasks submitted at or before this ISO-8601 instant; not before `from`. */
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskPageDto'];
        };
      };
      /** @description A bad query (status, handler, from, to, appId, offset, limit, cursor; `to` before `from`); `field` names it. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope tasks:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  TasksController_submit: {
    parameters: {
      query?: never;
      header?: {
        /** @description W3C trace context (`00-<32 hex trace-id>-<16 hex parent-id>-<2 hex flags>`, lower-case, ids not all zero): the work joins the caller's trace, as a child span of parent-id. Absent or malformed (checked strictly): a new trace is started, no error. The instance view shows the `traceparent` it runs under (docs/observability.md "Tracing"). */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SubmitTaskDto'];
      };
    };
    responses: {
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskAcceptedDto'];
        };
      };
      /** @description Invalid body (code VALIDATION; `field` names the part at fault as sent, e.g. handler, params.url, timeoutMs, or taskCode, executeParams.url, delay in the design source's shape; the two shapes mixed name the conflicting field), or no executor advertises the handler (field handler, or taskCode). Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope tasks:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description requestId reused with a different body (field requestId). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED), or the app has as many unfinished tasks and fires as its cap allows (code TOO_MANY_UNFINISHED; maxUnfinishedTasks, MAX_UNFINISHED_TASKS_PER_APP): nothing was written; retry after Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  TasksController_submitBatch: {
    parameters: {
      query?: never;
      header?: {
        /** @description W3C trace context (`00-<32 hex trace-id>-<16 hex parent-id>-<2 hex flags>`, lower-case, ids not all zero): the work joins the caller's trace, as a child span of parent-id. Absent or malformed (checked strictly): a new trace is started, no error. The instance view shows the `traceparent` it runs under (docs/observability.md "Tracing"). */
        traceparent?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SubmitTaskBatchDto'];
      };
    };
    responses: {
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskBatchAcceptedDto'];
        };
      };
      /** @description Invalid body; `field` names the task and its part at fault, e.g. `tasks[3].handler`, or `tasks` for a list of more than 1000. Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope tasks:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED), or the app has as many unfinished tasks and fires as its cap allows (code TOO_MANY_UNFINISHED; maxUnfinishedTasks, MAX_UNFINISHED_TASKS_PER_APP): nothing was written; retry after Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  TasksController_cancel: {
    parameters: {
      query?: {
        /** @description Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it (several: a 409 asking for this). */
        appId?: string;
      };
      header?: {
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path: {
        requestId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The task, CANCELLED (unchanged when it had ended). */
      200: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskViewDto'];
        };
      };
      /** @description A bad ?appId= (field appId: 3-64 of [A-Za-z0-9_.-]). Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope tasks:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No task of yours has this requestId (an admin names another app's task with ?appId=, in its namespace). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  TasksController_redeliver: {
    parameters: {
      query?: {
        /** @description Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it (several: a 409 asking for this). */
        appId?: string;
      };
      header?: {
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path: {
        requestId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      202: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CallbackViewDto'];
        };
      };
      /** @description A bad ?appId= (field appId: 3-64 of [A-Za-z0-9_.-]). Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope tasks:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No task of yours has this requestId (an admin names another app's task with ?appId=, in its namespace). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The instance has no callback delivery: it is not final yet, or no callback URL applied when it finished (none of its own, no registration of the app's). Or: Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  TasksController_get: {
    parameters: {
      query?: {
        /** @description Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it (several: a 409 asking for this). */
        appId?: string;
      };
      header?: never;
      path: {
        requestId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskViewDto'];
        };
      };
      /** @description A bad ?appId= (field appId: 3-64 of [A-Za-z0-9_.-]). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope tasks:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No task of yours has this requestId (an admin names another app's task with ?appId=, in its namespace). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  TasksController_logs: {
    parameters: {
      query?: {
        /** @description Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it (several: a 409 asking for this). */
        appId?: string;
        /** @description Cursor: the id of the last line already read (`next` of the previous page); lines after it. */
        after?: number;
        /** @description Lines per page. */
        limit?: number;
        /** @description Only the lines of this attempt (1 = the first). */
        attempt?: number;
      };
      header?: never;
      path: {
        requestId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['LogPageDto'];
        };
      };
      /** @description A bad query (after, limit, attempt, appId); `field` names it. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope tasks:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No task of yours has this requestId (an admin names another app's task with ?appId=, in its namespace). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  JobsController_list: {
    parameters: {
      query?: {
        /** @description Items to skip, 0-100000. */
        offset?: number;
        /** @description Items to return, 1-500. */
        limit?: number;
        /** @description Admins only. GET /api/jobs: list this app's jobs (default for an admin: every app's; for anyone else: its own). A job's instances: the app that owns the job (another app's id without the admin scope is a 403). */
        appId?: string;
        /** @description Keep the jobs whose code, description or handler contains this text, in any case (1-128 characters; % and _ are plain characters). */
        q?: string;
        /** @description Keep only enabled (true) or paused (false) jobs. */
        enabled?: 'true' | 'false';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JobPageDto'];
        };
      };
      /** @description A bad query (offset, limit, appId, q or enabled); `field` names it. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  JobsController_create: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateJobDto'];
      };
    };
    responses: {
      201: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JobViewDto'];
        };
      };
      /** @description Invalid definition (code VALIDATION; `field` names the part at fault, e.g. triggerExpr for a bad cron expression, timeZone for an unknown zone, callbackUrl for a refused URL), or its handler cannot run here (field handler). Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The app already has a job of this code (field code), owns as many jobs as its cap allows (field maxJobs), or JOB_METRICS_MAX jobs of the namespace have metrics on (field metrics). Or: Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  JobsController_importCrontab: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ImportCrontabDto'];
      };
    };
    responses: {
      200: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CrontabImportResultDto'];
        };
      };
      /** @description Invalid body (`field` names it: fileName, content, timeZone, enable, mapUsers), more entries than one import takes (field content), or, with enable=true, no executor runs shell (field handler). Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Another write changed one of these jobs meanwhile: send the import again. Or: Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  JobsController_get: {
    parameters: {
      query?: {
        /** @description Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it (several: a 409 asking for this). */
        appId?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JobViewDto'];
        };
      };
      /** @description A bad ?appId= (field appId: 3-64 of [A-Za-z0-9_.-]). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No such job of yours (another app's job is a 404 too; an admin sees every app's jobs of its namespace). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An admin named a code that several apps have (field appId): name the job by id, or add ?appId=. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  JobsController_remove: {
    parameters: {
      query?: {
        /** @description Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it (several: a 409 asking for this). */
        appId?: string;
      };
      header?: {
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted; no body. */
      204: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A bad ?appId= (field appId: 3-64 of [A-Za-z0-9_.-]). Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No such job of yours (another app's job is a 404 too; an admin sees every app's jobs of its namespace). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An admin named a code that several apps have (field appId): name the job by id, or add ?appId=. Or: Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  JobsController_update: {
    parameters: {
      query?: {
        /** @description Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it (several: a 409 asking for this). */
        appId?: string;
      };
      header?: {
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateJobDto'];
      };
    };
    responses: {
      200: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JobViewDto'];
        };
      };
      /** @description Invalid change (`field` names it, e.g. triggerExpr, timeZone, shardTotal past JOB_MAX_INSTANCES_PER_MINUTE, a null for a field that cannot be null), or a bad ?appId=. Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No such job of yours (another app's job is a 404 too; an admin sees every app's jobs of its namespace). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An admin named a code that several apps have (field appId): name the job by id, or add ?appId=. Or the new code is taken (field code), metrics true while JOB_METRICS_MAX jobs of the namespace have it on (field metrics), or another write changed the job meanwhile. Or: Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  JobsController_pause: {
    parameters: {
      query?: {
        /** @description Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it (several: a 409 asking for this). */
        appId?: string;
      };
      header?: {
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The job, paused (enabled false); unchanged when it was paused. */
      200: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JobViewDto'];
        };
      };
      /** @description A bad ?appId= (field appId: 3-64 of [A-Za-z0-9_.-]). Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No such job of yours (another app's job is a 404 too; an admin sees every app's jobs of its namespace). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An admin named a code that several apps have (field appId): name the job by id, or add ?appId=. Or: Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  JobsController_resume: {
    parameters: {
      query?: {
        /** @description Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it (several: a 409 asking for this). */
        appId?: string;
      };
      header?: {
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The job, enabled, with its next fire times from now. */
      200: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['JobViewDto'];
        };
      };
      /** @description The schedule cannot fire (field triggerExpr: e.g. a ONE_SHOT instant in the past, or past JOB_MAX_INSTANCES_PER_MINUTE), no executor runs its handler (field handler), or a bad ?appId=. Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No such job of yours (another app's job is a 404 too; an admin sees every app's jobs of its namespace). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An admin named a code that several apps have (field appId): name the job by id, or add ?appId=. Or the job is a ONE_SHOT that made its fire (field enabled): PATCH a new triggerExpr. Or: Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  JobsController_trigger: {
    parameters: {
      query?: {
        /** @description Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it (several: a 409 asking for this). */
        appId?: string;
      };
      header?: {
        /** @description W3C trace context (`00-<32 hex trace-id>-<16 hex parent-id>-<2 hex flags>`, lower-case, ids not all zero): the work joins the caller's trace, as a child span of parent-id. Absent or malformed (checked strictly): a new trace is started, no error. The instance view shows the `traceparent` it runs under (docs/observability.md "Tracing"). */
        traceparent?: string;
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TriggerJobDto'];
      };
    };
    responses: {
      /** @description The new instance (shard 0 of a sharded job, with every shard under `shards`). */
      202: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TriggerViewDto'];
        };
      };
      /** @description Invalid params (field params), no executor runs its handler (field handler), or a bad ?appId=. Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No such job of yours (another app's job is a 404 too; an admin sees every app's jobs of its namespace). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An admin named a code that several apps have (field appId): name the job by id, or add ?appId=. Or: Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED), or the job owner's cap on unfinished tasks and fires (code TOO_MANY_UNFINISHED, nothing was written). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  JobsController_backfill: {
    parameters: {
      query?: {
        /** @description Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it (several: a 409 asking for this). */
        appId?: string;
      };
      header?: {
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BackfillDto'];
      };
    };
    responses: {
      200: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BackfillResultDto'];
        };
      };
      /** @description A bad range (field from or to: not ISO-8601, to before from, to in the future, more than 1000 fires or 10,000 instances), no executor runs its handler (field handler), or a bad ?appId=. Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No such job of yours (another app's job is a 404 too; an admin sees every app's jobs of its namespace). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An admin named a code that several apps have (field appId): name the job by id, or add ?appId=. Or: Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED), or the job owner's cap on unfinished tasks and fires (code TOO_MANY_UNFINISHED, nothing was written). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  JobsController_cancelInstance: {
    parameters: {
      query?: {
        /** @description Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it (several: a 409 asking for this). */
        appId?: string;
      };
      header?: {
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
        instanceId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The instance, CANCELLED (unchanged when it had ended). */
      200: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskViewDto'];
        };
      };
      /** @description A bad ?appId= (field appId: 3-64 of [A-Za-z0-9_.-]). Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No such job of yours (another app's job is a 404 too; an admin sees every app's jobs of its namespace). Or the instance is not one of its. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An admin named a code that several apps have (field appId): name the job by id, or add ?appId=. Or: Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  JobsController_redeliverInstance: {
    parameters: {
      query?: {
        /** @description Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it (several: a 409 asking for this). */
        appId?: string;
      };
      header?: {
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
        instanceId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      202: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CallbackViewDto'];
        };
      };
      /** @description A bad ?appId= (field appId: 3-64 of [A-Za-z0-9_.-]). Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No such job of yours (another app's job is a 404 too; an admin sees every app's jobs of its namespace). Or the instance is not one of its. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The instance has no callback delivery: it is not final yet, or no callback URL applied when it finished (none of its own, no registration of the app's). Or: An admin named a code that several apps have (field appId): name the job by id, or add ?appId=. Or: Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  JobsController_instanceLogs: {
    parameters: {
      query?: {
        /** @description Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it (several: a 409 asking for this). */
        appId?: string;
        /** @description Cursor: the id of the last line already read (`next` of the previous page); lines after it. */
        after?: number;
        /** @description Lines per page. */
        limit?: number;
        /** @description Only the lines of this attempt (1 = the first). */
        attempt?: number;
      };
      header?: never;
      path: {
        id: string;
        instanceId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['LogPageDto'];
        };
      };
      /** @description A bad query (after, limit, attempt, appId); `field` names it. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No such job of yours (another app's job is a 404 too; an admin sees every app's jobs of its namespace). Or the instance is not one of its. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An admin named a code that several apps have (field appId): name the job by id, or add ?appId=. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  JobsController_instance: {
    parameters: {
      query?: {
        /** @description Admins only: the app that owns the job or task (another app's id without the admin scope is a 403). Without it an admin names a job by id, or by code: its own job of that code first, else the one app that has it (several: a 409 asking for this). */
        appId?: string;
      };
      header?: never;
      path: {
        id: string;
        instanceId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TaskViewDto'];
        };
      };
      /** @description A bad ?appId= (field appId: 3-64 of [A-Za-z0-9_.-]). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No such job of yours (another app's job is a 404 too; an admin sees every app's jobs of its namespace). Or the instance is not one of its. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An admin named a code that several apps have (field appId): name the job by id, or add ?appId=. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  JobsController_instances: {
    parameters: {
      query?: {
        /** @description Items to skip, 0-100000. */
        offset?: number;
        /** @description Items to return, 1-500. */
        limit?: number;
        /** @description Admins only. GET /api/jobs: list this app's jobs (default for an admin: every app's; for anyone else: its own). A job's instances: the app that owns the job (another app's id without the admin scope is a 403). */
        appId?: string;
        /** @description Opaque: the `nextCursor` of the page before. Continues after the last item of that page (keyset, so rows added meanwhile neither repeat nor shift the pages); not combined with `offset`. A cursor this list did not give is a 400 naming `cursor`. */
        cursor?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InstancePageDto'];
        };
      };
      /** @description A bad query (offset, limit, cursor or appId); `field` names it. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No such job of yours (another app's job is a 404 too; an admin sees every app's jobs of its namespace). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An admin named a code that several apps have (field appId): name the job by id, or add ?appId=. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  NodesController_list: {
    parameters: {
      query?: {
        /** @description Only the nodes advertising this handler; a caller without `admin` also sees the trusted executors that advertise it when it has no work for it yet (never `shell` without the `shell` scope). */
        handler?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NodePageDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope nodes:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  ClientsController_list: {
    parameters: {
      query?: {
        /** @description Items to skip, 0-100000. */
        offset?: number;
        /** @description Items to return, 1-500. */
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ClientPageDto'];
        };
      };
      /** @description A bad query (offset or limit); `field` names it. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope admin (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  ClientsController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateClientDto'];
      };
    };
    responses: {
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ClientCredentialsDto'];
        };
      };
      /** @description Invalid body (`field` names the part at fault: appId, scopes, a limit), or a reserved appId. Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope admin (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The app id exists (field appId). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  ClientsController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        appId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ClientViewDto'];
        };
      };
      /** @description A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope admin (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No client has this app id. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  ClientsController_update: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path: {
        appId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateClientDto'];
      };
    };
    responses: {
      200: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ClientViewDto'];
        };
      };
      /** @description Invalid change (`field` names it: scopes, enabled, a limit, egressAllow). Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the admin scope, would disable itself or drop its own admin scope, or would add to its own client a scope it lacks. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No client has this app id. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  ClientsController_rotate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        appId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ClientCredentialsDto'];
        };
      };
      /** @description A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope admin (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No client has this app id. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  AuditController_list: {
    parameters: {
      query?: {
        /** @description Items to skip, 0-100000. Not with `cursor`. */
        offset?: number;
        /** @description Items to return, 1-500. */
        limit?: number;
        /** @description Opaque: the `nextCursor` of the page before. Continues after the last item of that page (keyset, so rows added meanwhile neither repeat nor shift the pages); not combined with `offset`. A cursor this list did not give is a 400 naming `cursor`. */
        cursor?: string;
        /** @description Rows written by this app (who made the change). */
        appId?: string;
        /** @description Rows about this job (its id, not its code): its changes, runs and instance cancels. */
        jobId?: string;
        /** @description One action (README "Audit"); an unknown one is a 400, not an empty page. */
        action?:
          | 'JOB_CREATE'
          | 'JOB_UPDATE'
          | 'JOB_DELETE'
          | 'JOB_PAUSE'
          | 'JOB_RESUME'
          | 'JOB_TRIGGER'
          | 'JOB_BACKFILL'
          | 'INSTANCE_CANCEL'
          | 'TASK_CANCEL'
          | 'CRONTAB_IMPORT'
          | 'CLIENT_CREATE'
          | 'CLIENT_UPDATE'
          | 'CLIENT_DISABLE'
          | 'CLIENT_ROTATE_SECRET'
          | 'CALLBACK_REGISTER'
          | 'CALLBACK_DELETE'
          | 'CALLBACK_REDELIVER'
          | 'NOTIFY_RULE_SET'
          | 'NOTIFY_RULE_DELETE'
          | 'NOTIFY_RULE_TEST'
          | 'NOTIFICATION_SENT'
          | 'NOTIFICATION_FAILED'
          | 'CALLBACK_REDELIVER_HOST';
        /** @description Rows written at or after this ISO-8601 instant. */
        from?: string;
        /** @description Rows written at or before this ISO-8601 instant. */
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditPageDto'];
        };
      };
      /** @description A bad query (appId, action, jobId, from, to, offset, limit, cursor; `to` before `from`); `field` names it. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope admin (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  CallbacksController_hostList: {
    parameters: {
      query?: {
        /** @description Items to skip, 0-100000. */
        offset?: number;
        /** @description Items to return, 1-500. */
        limit?: number;
        /** @description Admins only: this app's hosts (another app's id without the admin scope is a 403). Omitted: the caller's. */
        appId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CallbackHostPageDto'];
        };
      };
      /** @description A bad ?appId=, offset or limit (`field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope tasks:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  CallbacksController_redeliverHost: {
    parameters: {
      query?: {
        /** @description Admins only: the app whose callback registrations these are (another app's id without the admin scope is a 403; an app with no client, at register, a 404). Omitted: the calling app. */
        appId?: string;
      };
      header?: {
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RedeliverHostDto'];
      };
    };
    responses: {
      202: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RedeliverHostResultDto'];
        };
      };
      /** @description A bad host, since (too far back, in the future) or ?appId= (`field` names it). Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope tasks:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An admin named an app that has no client. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  CallbacksController_deliveryList: {
    parameters: {
      query?: {
        /** @description Items to skip, 0-100000. Not with `cursor`. */
        offset?: number;
        /** @description Items to return, 1-500. */
        limit?: number;
        /** @description Opaque: the `nextCursor` of the page before. Continues after the last item of that page (keyset, so rows added meanwhile neither repeat nor shift the pages); not combined with `offset`. A cursor this list did not give is a 400 naming `cursor`. */
        cursor?: string;
        /** @description Deliveries in this state now. PENDING: written, not tried yet; RETRYING: tried and failed, tried again at nextAttemptAt (after 5 s, 30 s, 2 min, 10 min, 30 min by default, CALLBACK_RETRY_DELAYS_MS); DELIVERED: the receiver answered 2xx; CALLBACK_FAILED (final): tries spent, a 4xx other than 408/429 or a 3xx (not retried), an egress refusal of the resolved address, or older than CALLBACK_MAX_AGE_MS (24 h). */
        state?: 'PENDING' | 'RETRYING' | 'DELIVERED' | 'CALLBACK_FAILED';
        /** @description Admins only: this app's deliveries (default for an admin: every app's of the namespace; for anyone else: its own). Another app's id without the admin scope is a 403. */
        appId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DeliveryPageDto'];
        };
      };
      /** @description A bad query (state, appId, offset, limit, cursor); `field` names it. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope tasks:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  CallbacksController_register: {
    parameters: {
      query?: {
        /** @description Admins only: the app whose callback registrations these are (another app's id without the admin scope is a 403; an app with no client, at register, a 404). Omitted: the calling app. */
        appId?: string;
      };
      header?: {
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RegisterCallbackDto'];
      };
    };
    responses: {
      200: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CallbackRegistrationViewDto'];
        };
      };
      /** @description A refused url (field url, with the reason), a bad handler or a bad ?appId= (`field` names it). Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope tasks:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An admin named an app that has no client. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The app holds 1000 registrations already (field handler). Or: Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  CallbacksController_list: {
    parameters: {
      query?: {
        /** @description Admins only: the app whose callback registrations these are (another app's id without the admin scope is a 403; an app with no client, at register, a 404). Omitted: the calling app. */
        appId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CallbackRegistrationListDto'];
        };
      };
      /** @description A bad ?appId= (field appId). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope tasks:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  CallbacksController_remove: {
    parameters: {
      query?: {
        /** @description Admins only: the app whose callback registrations these are (another app's id without the admin scope is a 403; an app with no client, at register, a 404). Omitted: the calling app. */
        appId?: string;
        /** @description The handler whose registration to remove; omitted: the app's default. */
        handler?: string;
      };
      header?: {
        /** @description Makes this request idempotent (docs/api.md "Idempotency"): 1-255 printable ASCII characters, no space first or last, unique per app (e.g. a UUID), kept IDEMPOTENCY_KEY_TTL_MS (default 24 h). The first 2xx answer is stored; the same key with the same method, path, query and body gets it again (with Idempotency-Replayed: true) without running again. An error answer is not stored: a retry with the key runs again. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed. */
      204: {
        headers: {
          /** @description 'true' on an answer replayed for an Idempotency-Key (absent on a first answer). */
          'Idempotency-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A bad ?handler= or ?appId= (`field` names it). Or: A malformed Idempotency-Key (code VALIDATION, field Idempotency-Key): empty, over 255 characters, not printable ASCII, or starting or ending with a space. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope tasks:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The app has no registration for this handler (or no default). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Idempotency-Key conflict (field Idempotency-Key): code IDEMPOTENCY_KEY_REUSED when the key was used with another request (method, path, query or body), nothing was changed; code IDEMPOTENCY_IN_PROGRESS (with Retry-After) when the first request with the key was still running after a 10 s wait. Other 409s of the route keep their own codes. */
      409: {
        headers: {
          /** @description Seconds to wait before retrying (IDEMPOTENCY_IN_PROGRESS only). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). Or: code TOO_MANY_IDEMPOTENCY_KEYS (field Idempotency-Key, with Retry-After) when a new key would take the app past IDEMPOTENCY_KEYS_PER_APP (default 10,000) unexpired keys; nothing ran. A replay of a key it holds still works. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  SchedulesController_load: {
    parameters: {
      query?: {
        /** @description Hours ahead to count, 1-48, from the start of this minute. */
        hours?: number;
        /** @description Fires one second needs to be a herd, 2-100000. */
        herd?: number;
        /** @description Admins only: this app's jobs (default for an admin: every app's of the namespace; for anyone else: its own). Another app's id without the admin scope is a 403. */
        appId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ScheduleLoadDto'];
        };
      };
      /** @description A bad query (hours: 1-48, herd: 2-100000, appId); `field` names it. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  SchedulesController_preview: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SchedulePreviewDto'];
      };
    };
    responses: {
      /** @description The trigger as read (defaults filled in), the start, and up to count fire times with notes. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SchedulePreviewViewDto'];
        };
      };
      /** @description Invalid input (code VALIDATION) naming the field: triggerType, triggerExpr (bad or never-firing cron, bad period, bad instant), timeZone (unknown zone), from (not an instant with Z or an offset, or out of range) or count (not 1-100). Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown app, a replayed nonce (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /**
       * @description Without the jobs:read scope (code FORBIDDEN).
       *
       *     The caller lacks the scope jobs:read (code FORBIDDEN; `scope` names it).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait (at least 1). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  WorkerController_register: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RegisterWorkerDto'];
      };
    };
    responses: {
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WorkerRegisteredDto'];
        };
      };
      /** @description A bad body (unknown field, out of its bounds); `field` names it, and nothing changes. A built-in handler (noop, http, shell) is refused naming handlers. Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope worker (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The app already has 100 live worker nodes (deregister one first); nothing changes. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  WorkerController_heartbeat: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        nodeId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WorkerHeartbeatDto'];
      };
    };
    responses: {
      /** @description Recorded. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A bad body (unknown field, out of its bounds); `field` names it, and nothing changes. active over the node's capacity names active. Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope worker (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The node is not this app's, was deregistered or expired (register again); nothing changes. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  WorkerController_claim: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        nodeId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WorkerClaimDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WorkerClaimAnswerDto'];
        };
      };
      /** @description A bad body (unknown field, out of its bounds); `field` names it, and nothing changes. Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope worker (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The node is not this app's, was deregistered or expired (register again); nothing changes. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  WorkerController_leases: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        nodeId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WorkerLeasesDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WorkerLeasesAnswerDto'];
        };
      };
      /** @description A bad body (unknown field, out of its bounds); `field` names it, and nothing changes. Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope worker (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The node is not this app's, was deregistered or expired (register again); nothing changes. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  WorkerController_checkpoint: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        nodeId: string;
        instanceId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WorkerCheckpointDto'];
      };
    };
    responses: {
      /** @description Stored. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A bad body (unknown field, out of its bounds); `field` names it, and nothing changes. A state over CHECKPOINT_MAX_BYTES or not JSON names state. Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope worker (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The node is not this app's, was deregistered or expired (register again); nothing changes. Or the instance is not this app's, or another node's running attempt. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The fencing token is stale (the attempt was taken back, cancelled or superseded); nothing was written. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  WorkerController_progress: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        nodeId: string;
        instanceId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WorkerProgressDto'];
      };
    };
    responses: {
      /** @description Taken. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A bad body (unknown field, out of its bounds); `field` names it, and nothing changes. Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope worker (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The node is not this app's, was deregistered or expired (register again); nothing changes. Or the instance is not this app's, or another node's running attempt. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  WorkerController_logs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        nodeId: string;
        instanceId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WorkerLogsDto'];
      };
    };
    responses: {
      /** @description Taken. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A bad body (unknown field, out of its bounds); `field` names it, and nothing changes. Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope worker (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The node is not this app's, was deregistered or expired (register again); nothing changes. Or the instance is not this app's, or another node's running attempt. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  WorkerController_finish: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        nodeId: string;
        instanceId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WorkerFinishDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WorkerFinishAnswerDto'];
        };
      };
      /** @description A bad body (unknown field, out of its bounds); `field` names it, and nothing changes. Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope worker (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The node is not this app's, was deregistered or expired (register again); nothing changes. Or the instance is not this app's, or another node's running attempt. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The fencing token is stale (the attempt was taken back, cancelled or superseded); nothing was written. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  WorkerController_finishes: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        nodeId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WorkerFinishesDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WorkerFinishesAnswerDto'];
        };
      };
      /** @description A bad body (unknown field, out of its bounds); `field` names it, and nothing changes. A repeated instanceId names items[i].instanceId. Or: A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope worker (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The node is not this app's, was deregistered or expired (register again); nothing changes. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  WorkerController_deregister: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        nodeId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deregistered. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope worker (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The node is not this app's, was deregistered or expired (register again); nothing changes. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  OverviewController_whoami: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WhoamiDto'];
        };
      };
      /** @description A query parameter this route does not take (code VALIDATION; `field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  OverviewController_overview: {
    parameters: {
      query?: {
        /** @description Admins only: this app's figures (default for an admin: every app of the namespace; for anyone else: its own). Another app's id without the admin scope is a 403. */
        appId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OverviewDto'];
        };
      };
      /** @description A bad ?appId= (field appId: 3-64 of [A-Za-z0-9_.-]). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope tasks:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  NotificationRulesController_list: {
    parameters: {
      query?: {
        /** @description Admins only: another app's rules, or `*`: the namespace defaults, which apply to every app with no enabled rule of its own of the same kind. */
        appId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NotificationRuleListDto'];
        };
      };
      /** @description A bad ?appId= (field appId). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  NotificationRulesController_create: {
    parameters: {
      query?: {
        /** @description Admins only: another app's rules, or `*`: the namespace defaults, which apply to every app with no enabled rule of its own of the same kind. */
        appId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateNotificationRuleDto'];
      };
    };
    responses: {
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NotificationRuleViewDto'];
        };
      };
      /** @description A bad field (`field` names it: kind, count, finishBy, channels[1].to[0], …). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description A rule of that name exists (PUT replaces it), or the app holds 50 rules (field name). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  NotificationRulesController_get: {
    parameters: {
      query?: {
        /** @description Admins only: another app's rules, or `*`: the namespace defaults, which apply to every app with no enabled rule of its own of the same kind. */
        appId?: string;
      };
      header?: never;
      path: {
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NotificationRuleViewDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No rule of that name. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  NotificationRulesController_put: {
    parameters: {
      query?: {
        /** @description Admins only: another app's rules, or `*`: the namespace defaults, which apply to every app with no enabled rule of its own of the same kind. */
        appId?: string;
      };
      header?: never;
      path: {
        name: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['NotificationRuleBodyDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NotificationRuleViewDto'];
        };
      };
      /** @description A bad name or field (`field` names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The app holds 50 rules (field name). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  NotificationRulesController_remove: {
    parameters: {
      query?: {
        /** @description Admins only: another app's rules, or `*`: the namespace defaults, which apply to every app with no enabled rule of its own of the same kind. */
        appId?: string;
      };
      header?: never;
      path: {
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No rule of that name. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  NotificationRulesController_test: {
    parameters: {
      query?: {
        /** @description Admins only: another app's rules, or `*`: the namespace defaults, which apply to every app with no enabled rule of its own of the same kind. */
        appId?: string;
      };
      header?: never;
      path: {
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RuleTestDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:write (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description No rule of that name. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The app had NOTIFY_MAX_PER_HOUR messages in the last hour (Retry-After: 300). */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  NotificationsController_list: {
    parameters: {
      query?: {
        /** @description Items to skip, 0-100000. Not with `cursor`. */
        offset?: number;
        /** @description Items to return, 1-500. */
        limit?: number;
        /** @description Opaque: the `nextCursor` of the page before. Continues after the last item of that page (keyset, so rows added meanwhile neither repeat nor shift the pages); not combined with `offset`. A cursor this list did not give is a 400 naming `cursor`. */
        cursor?: string;
        /** @description OPEN: still collecting events until sendAt; SENT: closed, its deliveries written. */
        state?: 'OPEN' | 'SENT';
        /** @description Only messages of rules of this kind. */
        kind?:
          | 'FINAL_FAILURE'
          | 'CONSECUTIVE_FAILURES'
          | 'RECOVERY'
          | 'DEADLINE'
          | 'LATE_START'
          | 'HANDLER_UNAVAILABLE'
          | 'CALLBACK_HOST_FAILING';
        /** @description Only messages of the rule of this name (1-100 characters, exact). */
        rule?: string;
        /** @description Admins only: this app's messages (default for an admin: every app's of the namespace; for anyone else: its own). Another app's id without the admin scope is a 403. */
        appId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NotificationPageDto'];
        };
      };
      /** @description A bad query (state, kind, rule, appId, offset, limit, cursor); `field` names it. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Missing or invalid signature, an unknown or disabled app, a timestamp more than 300 s off, a replayed nonce, or an old (v1) signature: always the same problem+json (code UNAUTHORIZED). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The caller lacks the scope jobs:read (code FORBIDDEN; `scope` names it). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body over 2 MiB (code PAYLOAD_TOO_LARGE); the connection is closed. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Body not application/json (utf-8), or with a Content-Encoding other than identity (code UNSUPPORTED_MEDIA_TYPE). */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description Over the app's request rate limit (code RATE_LIMITED). */
      429: {
        headers: {
          /** @description Seconds to wait before retrying (at least 1). */
          'Retry-After'?: number;
          /** @description Size of the app's token bucket (the burst); on every answer to a limited app. */
          'RateLimit-Limit'?: number;
          /** @description Requests left in the bucket now. */
          'RateLimit-Remaining'?: number;
          /** @description Seconds until the bucket is full again. */
          'RateLimit-Reset'?: number;
          /** @description <burst>;w=<seconds to refill it> (draft-ietf-httpapi-ratelimit-headers-06). */
          'RateLimit-Policy'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description An unexpected server error (code INTERNAL); the detail never holds a stack or a secret. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
      /** @description The database or Redis cannot be reached or did not answer within STORAGE_TIMEOUT_MS (code STORAGE_UNAVAILABLE, `storage` names which); answered within 2 x STORAGE_TIMEOUT_MS. A write may have committed: resend a submit with the same requestId, other writes with an Idempotency-Key. */
      503: {
        headers: {
          /** @description Seconds to wait before sending again (5). */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['ProblemDto'];
        };
      };
    };
  };
  MetricsController_index: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every metric of this process: # HELP and # TYPE lines, then its samples. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain; version=0.0.4; charset=utf-8': string;
        };
      };
      /** @description METRICS_TOKEN is set and the request has no `Authorization: Bearer` of it */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
    };
  };
}
