import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { createApp } from '../dist/src/bootstrap.js';
import { loadConfig } from '../dist/src/config/index.js';
import { ApiClientService } from '../dist/src/modules/openapi/index.js';
import { TickwheelClient } from '../dist/src/client/tickwheel-client.js';
const env = process.argv[2]==='cluster' ? {DB_URL:'mysql://root@127.0.0.1:3306/test',REDIS_URL:'redis://127.0.0.1:6379',TICKWHEEL_SECRET_KEY:'a'.repeat(64),TICKWHEEL_NAMESPACE:'prof'+Date.now(),LOG_LEVEL:'warn'} : { DATA_DIR: mkdtempSync('/tmp/twp-'), LOG_LEVEL: 'warn' };
const config = loadConfig(env);
const app = await createApp(config);
await app.listen(0,'127.0.0.1');
const port = app.getHttpServer().address().port;
const { secret } = await app.get(ApiClientService).create('prof');
const c = new TickwheelClient({ baseUrl: `http://127.0.0.1:${port}`, appId: 'prof', secret });
let t = Date.now();
for (let i=0;i<200;i++) { const r = await c.request('GET','/api/tasks/nonexistent'); }
console.log('200 sequential GET 404 signed', Date.now()-t, 'ms');
t = Date.now();
for (let i=0;i<200;i++) { await fetch(`http://127.0.0.1:${port}/health/live`).then(r=>r.text()); }
console.log('200 sequential health', Date.now()-t, 'ms');
t = Date.now();
for (let i=0;i<200;i++) { const r = await c.submitTask({handler:'nohandler', params:{}}); }
console.log('200 sequential submits (no executor for handler)', Date.now()-t, 'ms');
t = Date.now();
await Promise.all(Array.from({length:200},(_,i)=>c.submitTask({handler:'nohandler', params:{}})));
console.log('200 parallel submits', Date.now()-t, 'ms');
await app.close();
