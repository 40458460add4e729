import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** The extensions the migrations create; PGlite loads an extension's files only when asked to. */
export const pgliteExtensions = { pg_trgm };
