import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { createApp } from '../dist/src/bootstrap.js';
import { loadConfig } from '../dist/src/config/index.js';
import { ApiClientService } from '../dist/src/modules/openapi/index.js';
import { TasksService } from '../dist/src/modules/openapi/services/tasks.service.js';
import { DispatchService } from '../dist/src/modules/dispatch/index.js';
import { JobInstanceRepository } from '../dist/src/modules/metadata/index.js';
import { TickwheelClient } from '../dist/src/client/tickwheel-client.js';
const config = loadConfig({ DATA_DIR: mkdtempSync('/tmp/twp-'), LOG_LEVEL: 'warn' });
const app = await createApp(config);
await app.listen(0,'127.0.0.1');
const port = app.getHttpServer().address().port;
const { secret } = await app.get(ApiClientService).create('prof');
const c = new TickwheelClient({ baseUrl: `http://127.0.0.1:${port}`, appId: 'prof', secret });
const acc = {};
function wrap(obj, name, label) { const f = obj[name].bind(obj); obj[name] = async (...a) => { const t = performance.now(); try { return await f(...a); } finally { acc[label] = (acc[label] ?? 0) + performance.now() - t; } }; }
const ts = app.get(TasksService); wrap(ts, 'submit', 'submit');
const repo = app.get(JobInstanceRepository); wrap(repo, 'insertOrGet', 'insert'); wrap(repo, 'findByIds', 'findByIds'); wrap(repo, 'transition', 'transition');
const d = app.get(DispatchService); wrap(d, 'dispatchIds', 'dispatch');
let t = performance.now();
for (let i=0;i<200;i++) { await c.submitTask({handler:'http', params:{url:'http://127.0.0.1:9/x'}}); }
console.log('200 sequential submits', (performance.now()-t).toFixed(0), 'ms', Object.fromEntries(Object.entries(acc).map(([k,v])=>[k, v.toFixed(0)])));
await app.close();
