// One node running the no-op user handler `bench.echo` for bench:worker, as a user would run it from the built
// package: BENCH_ECHO_ROLE=executor starts a trusted executor (`startExecutor` of `tickwheel/executor`, a tiny Nest
// module with one @JobHandler provider; its settings from the environment as any executor's), =worker an app worker
// (`TickwheelWorker` of `tickwheel/worker`, with only TICKWHEEL_URL, TICKWHEEL_APP_ID, TICKWHEEL_SECRET and
// WORKER_CONCURRENCY). BENCH_DIST is the build's dist/src. The handler returns `{ t: Date.now() }`: when it really
// ran, which the bench reads back from job_instance.result (the rows' started_at is the claim's stamp, which for a
// worker is in the api, before the claim's answer has crossed HTTP). Prints a line with ` listening on ` when ready.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const DIST = process.env.BENCH_DIST;
const ROLE = process.env.BENCH_ECHO_ROLE;
if (!DIST || !['executor', 'worker'].includes(ROLE)) {
  process.stderr.write('echo-node: BENCH_DIST and BENCH_ECHO_ROLE=executor|worker are required\n');
  process.exit(2);
}
const entry = (p) => import(pathToFileURL(join(DIST, p)).href);

/** The no-op both nodes run: the instant it started. */
const echo = async () => ({ t: Date.now() });

if (ROLE === 'executor') {
  // @nestjs/common as the build resolves it, so the decorators' metadata is the one its Nest reads.
  const { Injectable, Module } = createRequire(join(DIST, 'executor/index.js'))('@nestjs/common');
  const { JobHandler, startExecutor } = await entry('executor/index.js');
  class EchoHandler {
    execute() {
      return echo();
    }
  }
  Injectable()(EchoHandler);
  JobHandler('bench.echo')(EchoHandler);
  class EchoModule {}
  Module({ providers: [EchoHandler] })(EchoModule);
  await startExecutor({ imports: [EchoModule] }); // logs its own `listening on` line; SIGTERM drains it
} else {
  const { TickwheelWorker } = await entry('worker/index.js');
  const worker = new TickwheelWorker({ handlers: { 'bench.echo': echo }, drainGraceMs: 2000 });
  await worker.start();
  process.stdout.write(`bench.echo worker ${worker.nodeId} listening on ${process.env.TICKWHEEL_URL}\n`);
  process.once('SIGTERM', () => void worker.stop().then(() => process.exit(0)));
}
