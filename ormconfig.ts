/**
 * The DataSource the TypeORM CLI uses (`npm run migration:run`, `migration:revert`). Built from the same
 * validated config as the app, so DB_URL unset means the standalone SQLite file under DATA_DIR.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/index.js';
import { dataSourceOptions } from './src/modules/metadata/data-source-options.js';

export default new DataSource(dataSourceOptions(loadConfig()));
