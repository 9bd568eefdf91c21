import { Initial1795343225561 } from './1795343225561-initial';

/** Every migration, in order (registered explicitly, no globs). */
export const MIGRATIONS = [Initial1795343225561];
