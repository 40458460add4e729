import { and, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { pageWithTotal, totalColumn } from '../db/page-with-total.ts';
import { promptRevisions, prompts, schemaRevisions, schemas } from '../db/schema.ts';
import { conflict, DomainError, invalidInput, notFound } from '../errors.ts';
import { actorName, type OrgAccess } from '../identity/access.ts';
import { newId } from '../ids.ts';
import { escapeLike } from '../sql-text.ts';
import { type ResponseFormat, type SchemaProblem, validateAgainstSchema, validateResponseFormat } from './schema-validation.ts';

/** One revision of a schema, as DocRouter names its parts (schema_id stable, schema_revid per version). */
export interface SchemaRevision {
  schemaRevid: string;
  schemaId: string;
  schemaVersion: number;
  name: string;
  responseFormat: ResponseFormat;
  createdAt: Date;
  createdBy: string;
}

/** A schema that breaks the rules; `problems` lists each one with its path. */
export class InvalidSchemaError extends DomainError {
  readonly problems: SchemaProblem[];
  constructor(problems: SchemaProblem[]) {
    const shown = problems.slice(0, 20).map((p) => `${p.path}: ${p.message}`);
    const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
    super('invalid_input', `The schema is not valid: ${shown.join('; ')}${more}.`);
    this.problems = problems;
  }
}

const columns = {
  schemaRevid: schemaRevisions.id,
  schemaId: schemaRevisions.schemaId,
  schemaVersion: schemaRevisions.version,
  name: schemaRevisions.name,
  responseFormat: schemaRevisions.responseFormat,
  createdAt: schemaRevisions.createdAt,
  createdBy: schemaRevisions.createdBy,
};

const asRevision = (row: Omit<SchemaRevision, 'responseFormat'> & { responseFormat: unknown }): SchemaRevision => ({
  ...row,
  responseFormat: row.responseFormat as ResponseFormat,
});

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 200) throw invalidInput('A schema name must have 1 to 200 characters.');
  return trimmed;
}

function checkedResponseFormat(input: unknown): ResponseFormat {
  const result = validateResponseFormat(input);
  if (!result.valid) throw new InvalidSchemaError(result.errors);
  return result.responseFormat;
}

/** The latest revision of each schema of the org: the newest version per schema id. */
const isLatest = sql`${schemaRevisions.version} = (select max(r.version) from schema_revisions r where r.schema_id = ${schemaRevisions.schemaId})`;

async function latestRevision(db: Db, orgId: string, schemaId: string): Promise<SchemaRevision> {
  const [row] = await db
    .select(columns)
    .from(schemaRevisions)
    .innerJoin(schemas, eq(schemas.id, schemaRevisions.schemaId))
    .where(and(eq(schemas.orgId, orgId), eq(schemas.id, schemaId)))
    .orderBy(desc(schemaRevisions.version))
    .limit(1);
  if (!row) throw notFound(`Schema ${schemaId}`);
  return asRevision(row);
}

async function addRevision(
  db: Db,
  schemaId: string,
  input: { name: string; responseFormat: ResponseFormat; createdBy: string },
): Promise<SchemaRevision> {
  // The schema row is locked so that two concurrent changes get consecutive versions.
  const [locked] = await db.select({ id: schemas.id }).from(schemas).where(eq(schemas.id, schemaId)).for('update');
  if (!locked) throw notFound(`Schema ${schemaId}`);
  const [last] = await db
    .select({ version: sql<number>`coalesce(max(${schemaRevisions.version}), 0)::int` })
    .from(schemaRevisions)
    .where(eq(schemaRevisions.schemaId, schemaId));
  await db.update(schemas).set({ name: input.name }).where(eq(schemas.id, schemaId));
  const [row] = await db
    .insert(schemaRevisions)
    .values({ id: newId(), schemaId, version: (last?.version ?? 0) + 1, ...input })
    .returning(columns);
  if (!row) throw new Error('insert into schema_revisions returned no row');
  return asRevision(row);
}

/**
 * Creates a schema, or, when the org already has one of that name, adds a version to it
 * (as DocRouter does). The response_format is checked against every strict rule first.
 */
export async function createSchema(
  db: Db,
  access: OrgAccess,
  input: { name: string; responseFormat: unknown },
): Promise<SchemaRevision> {
  const name = checkName(input.name);
  const responseFormat = checkedResponseFormat(input.responseFormat);
  const createdBy = await actorName(db, access);
  return db.transaction(async (tx) => {
    await tx
      .insert(schemas)
      .values({ id: newId(), orgId: access.orgId, name })
      .onConflictDoNothing({ target: [schemas.orgId, schemas.name] });
    const [existing] = await tx
      .select({ id: schemas.id })
      .from(schemas)
      .where(and(eq(schemas.orgId, access.orgId), eq(schemas.name, name)));
    if (!existing) throw new Error('the schema row vanished inside its transaction');
    return addRevision(tx, existing.id, { name, responseFormat, createdBy });
  });
}

export async function getSchemaRevision(db: Db, orgId: string, schemaRevid: string): Promise<SchemaRevision> {
  const [row] = await db
    .select(columns)
    .from(schemaRevisions)
    .innerJoin(schemas, eq(schemas.id, schemaRevisions.schemaId))
    .where(and(eq(schemas.orgId, orgId), eq(schemaRevisions.id, schemaRevid)));
  if (!row) throw notFound(`Schema revision ${schemaRevid}`);
  return asRevision(row);
}

/** A schema's given version, or its latest; for prompts that name a schema id and version. */
export async function findSchemaVersion(db: Db, orgId: string, schemaId: string, version?: number): Promise<SchemaRevision> {
  if (version === undefined) return latestRevision(db, orgId, schemaId);
  const [row] = await db
    .select(columns)
    .from(schemaRevisions)
    .innerJoin(schemas, eq(schemas.id, schemaRevisions.schemaId))
    .where(and(eq(schemas.orgId, orgId), eq(schemas.id, schemaId), eq(schemaRevisions.version, version)));
  if (!row) throw notFound(`Version ${version} of schema ${schemaId}`);
  return asRevision(row);
}

/**
 * Who created a schema (the author of its first version), by id or by the name a create would
 * version; null when there is no such schema. A run allowed to change only what it made asks this.
 */
export async function schemaCreator(db: Db, orgId: string, ref: { schemaId: string } | { name: string }): Promise<string | null> {
  const which = 'schemaId' in ref ? eq(schemas.id, ref.schemaId) : eq(schemas.name, ref.name.trim());
  const [row] = await db
    .select({ createdBy: schemaRevisions.createdBy })
    .from(schemaRevisions)
    .innerJoin(schemas, eq(schemas.id, schemaRevisions.schemaId))
    .where(and(eq(schemas.orgId, orgId), which, eq(schemaRevisions.version, 1)));
  return row?.createdBy ?? null;
}

/** The latest revision of each schema, most recently changed first. */
export async function listSchemas(
  db: Db,
  orgId: string,
  query: { skip: number; limit: number; nameSearch?: string },
): Promise<{ schemas: SchemaRevision[]; total: number }> {
  const conditions = [eq(schemas.orgId, orgId), isLatest];
  if (query.nameSearch) conditions.push(ilike(schemaRevisions.name, `%${escapeLike(query.nameSearch)}%`));
  const where = and(...conditions);
  const counted = db
    .select({ n: count() })
    .from(schemaRevisions)
    .innerJoin(schemas, eq(schemas.id, schemaRevisions.schemaId))
    .where(where);
  const { rows, total } = await pageWithTotal(
    await db
      .select({ ...columns, total: totalColumn(counted) })
      .from(schemaRevisions)
      .innerJoin(schemas, eq(schemas.id, schemaRevisions.schemaId))
      .where(where)
      .orderBy(desc(schemaRevisions.createdAt), desc(schemaRevisions.id))
      .offset(query.skip)
      .limit(query.limit),
    query.skip,
    () => counted,
  );
  return { schemas: rows.map(asRevision), total };
}

/** Every revision of one schema, newest first; old revisions stay readable. */
export async function listSchemaVersions(db: Db, orgId: string, schemaId: string): Promise<SchemaRevision[]> {
  const rows = await db
    .select(columns)
    .from(schemaRevisions)
    .innerJoin(schemas, eq(schemas.id, schemaRevisions.schemaId))
    .where(and(eq(schemas.orgId, orgId), eq(schemas.id, schemaId)))
    .orderBy(desc(schemaRevisions.version));
  if (rows.length === 0) throw notFound(`Schema ${schemaId}`);
  return rows.map(asRevision);
}

/**
 * A new version of the schema with the changes; `changed` is false (and nothing is
 * written) when they change nothing.
 */
export async function updateSchema(
  db: Db,
  access: OrgAccess,
  schemaId: string,
  changes: { name?: string; responseFormat?: unknown },
): Promise<{ revision: SchemaRevision; changed: boolean }> {
  const current = await latestRevision(db, access.orgId, schemaId);
  const name = changes.name === undefined ? current.name : checkName(changes.name);
  const responseFormat =
    changes.responseFormat === undefined ? current.responseFormat : checkedResponseFormat(changes.responseFormat);
  if (name === current.name && JSON.stringify(responseFormat) === JSON.stringify(current.responseFormat)) {
    return { revision: current, changed: false };
  }
  if (name !== current.name) {
    const [clash] = await db
      .select({ id: schemas.id })
      .from(schemas)
      .where(and(eq(schemas.orgId, access.orgId), eq(schemas.name, name)));
    if (clash) throw conflict(`Another schema is already named "${name}"; choose another name.`);
  }
  const createdBy = await actorName(db, access);
  const revision = await db.transaction((tx) => addRevision(tx, schemaId, { name, responseFormat, createdBy }));
  return { revision, changed: true };
}

/** Deletes the schema and all its revisions, unless a prompt uses it. */
export async function deleteSchema(db: Db, orgId: string, schemaId: string): Promise<void> {
  const current = await latestRevision(db, orgId, schemaId);
  const users = await db
    .selectDistinct({ name: prompts.name })
    .from(promptRevisions)
    .innerJoin(prompts, eq(prompts.id, promptRevisions.promptId))
    .where(and(eq(prompts.orgId, orgId), eq(promptRevisions.schemaId, schemaId)))
    .limit(6);
  if (users.length > 0) {
    const names = users.slice(0, 5).map((u) => `"${u.name}"`);
    const more = users.length > 5 ? ' and others' : '';
    throw conflict(
      `Schema "${current.name}" is used by prompt${users.length > 1 ? 's' : ''} ${names.join(', ')}${more}; change or delete ${users.length > 1 ? 'them' : 'it'} first.`,
    );
  }
  await db.delete(schemas).where(and(eq(schemas.orgId, orgId), eq(schemas.id, schemaId)));
}

/** Checks data against a schema revision: what an extraction result must satisfy. */
export async function validateDataAgainstSchema(
  db: Db,
  orgId: string,
  schemaRevid: string,
  data: unknown,
): Promise<{ valid: boolean; errors: SchemaProblem[] }> {
  const revision = await getSchemaRevision(db, orgId, schemaRevid);
  return validateAgainstSchema(revision.responseFormat, data);
}
