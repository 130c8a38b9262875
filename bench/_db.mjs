import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../dist/src/modules/metadata/index.js';
for (const database of [{ type: 'better-sqlite3', path: mkdtempSync('/tmp/twdb-') + '/x.sqlite' }, { type: 'mysql', url: 'mysql://root@127.0.0.1:3306/test' }]) {
  const ds = await new DataSource(dataSourceOptions({ database })).initialize();
  await runMigrations(ds);
  let t = Date.now();
  for (let i = 0; i < 200; i++) await ds.query("insert into audit_log (id, action, target_type, target_id, created_at) values (?, 'x', 'y', 'z', 1)", [database.type + Date.now() + '-' + i]);
  console.log(database.type, '200 sequential autocommit inserts', Date.now() - t, 'ms');
  t = Date.now();
  for (let i = 0; i < 200; i++) await ds.query("select 1");
  console.log(database.type, '200 select 1', Date.now() - t, 'ms');
  t = Date.now();
  await Promise.all(Array.from({length:200},(_, i) => ds.query("insert into audit_log (id, action, target_type, target_id, created_at) values (?, 'x', 'y', 'z', 1)", [database.type + 'p' + Date.now() + '-' + i])));
  console.log(database.type, '200 parallel inserts', Date.now() - t, 'ms');
  await ds.destroy();
}
