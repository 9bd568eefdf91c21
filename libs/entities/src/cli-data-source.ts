// Entry point for the TypeORM CLI (`npm run migration:generate`): reads DATABASE_URL.
import { createDataSource } from './data-source';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');

export default createDataSource({ url });
