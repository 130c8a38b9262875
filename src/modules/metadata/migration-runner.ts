import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';

const LOCK = 'tickwheel_migrations';

/**
 * Applies pending migrations at start, serialised on MySQL with GET_LOCK (several pods may start at once).
 * @throws the migration's error (start-up then stops with it).
 */
export async function runMigrations(ds: DataSource, logger = new Logger('Migrations')): Promise<void> {
  if (ds.options.type !== 'mysql') {
    const done = await ds.runMigrations({ transaction: 'each' });
    if (done.length) logger.log(`applied ${done.map((m) => m.name).join(', ')}`);
    return;
  }
  const qr = ds.createQueryRunner();
  await qr.connect();
  try {
    const [{ got }] = await qr.query('SELECT GET_LOCK(?, 120) AS got', [LOCK]);
    if (Number(got) !== 1) throw new Error(`could not take the ${LOCK} lock within 120 s`);
    try {
      const done = await ds.runMigrations({ transaction: 'none' });
      if (done.length) logger.log(`applied ${done.map((m) => m.name).join(', ')}`);
    } finally {
      await qr.query('SELECT RELEASE_LOCK(?)', [LOCK]);
    }
  } finally {
    await qr.release();
  }
}
