import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { preparedPerDatabase } from '../db/prepared-query.ts';
import { memberships, organizations } from '../db/schema.ts';
import { invalidInput, notFound } from '../errors.ts';
import { newId } from '../ids.ts';

export type Role = 'admin' | 'user';

export interface Organization {
  id: string;
  name: string;
  createdAt: Date;
}

export interface OrganizationMembership {
  id: string;
  name: string;
  role: Role;
}

export async function createOrganization(db: Db, input: { name: string }): Promise<Organization> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 200) throw invalidInput('An organization name must have 1 to 200 characters.');
  const [row] = await db.insert(organizations).values({ id: newId(), name }).returning();
  if (!row) throw new Error('insert into organizations returned no row');
  return row;
}

export async function getOrganization(db: Db, orgId: string): Promise<Organization> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, orgId));
  if (!row) throw notFound(`Organization ${orgId}`);
  return row;
}

/** Adds the user to the organization, or changes their role when they are in it already. */
export async function setMembership(db: Db, input: { orgId: string; userId: string; role: Role }): Promise<void> {
  await db
    .insert(memberships)
    .values(input)
    .onConflictDoUpdate({ target: [memberships.orgId, memberships.userId], set: { role: input.role } });
}

/** Every request in an organization reads its person's role: built once (prepared-query.ts). */
const membershipRole = preparedPerDatabase((db) =>
  db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.orgId, sql.placeholder('orgId')), eq(memberships.userId, sql.placeholder('userId')))),
);

export async function findMembershipRole(db: Db, orgId: string, userId: string): Promise<Role | undefined> {
  const [row] = await membershipRole(db).execute({ orgId, userId });
  return row?.role;
}

export async function listOrganizationsOfUser(db: Db, userId: string): Promise<OrganizationMembership[]> {
  return db
    .select({ id: organizations.id, name: organizations.name, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.orgId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(organizations.createdAt), asc(organizations.id));
}
