import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { memberships, users } from '../db/schema.ts';
import { conflict, notFound } from '../errors.ts';
import { type OrgAccess, requireAdmin } from './access.ts';
import type { Role } from './organizations.ts';
import { generatePassword } from './secrets.ts';
import { createUser, normalizeEmail } from './users.ts';

/** A person in an organization, as its admins manage them. */
export interface Member {
  userId: string;
  email: string;
  name: string;
  role: Role;
  /** True until they sign in and replace the one-time password they were given. */
  mustChangePassword: boolean;
  joinedAt: Date;
}

export interface AddedMember {
  member: Member;
  /** Set when the account was created here: the only copy of its one-time password. */
  oneTimePassword: string | null;
}

const memberColumns = {
  userId: users.id,
  email: users.email,
  name: users.name,
  role: memberships.role,
  mustChangePassword: users.mustChangePassword,
  joinedAt: memberships.createdAt,
};

const ADMINS_ONLY = "Only an organization's admins can see and change its members.";

async function findMember(db: Db, orgId: string, userId: string): Promise<Member | undefined> {
  const [row] = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
  return row;
}

export async function listMembers(db: Db, access: OrgAccess): Promise<Member[]> {
  requireAdmin(access, ADMINS_ONLY);
  return db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.orgId, access.orgId))
    .orderBy(asc(users.email));
}

/**
 * Adds the person with this email; when nobody has it yet, creates their account with a one-time
 * password that must be replaced at the first sign-in, as the first-start admin's is.
 */
export async function addMember(
  db: Db,
  access: OrgAccess,
  input: { email: string; role: Role; name?: string },
): Promise<AddedMember> {
  requireAdmin(access, ADMINS_ONLY);
  return db.transaction(async (tx) => {
    const email = normalizeEmail(input.email);
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    let userId = existing?.id;
    let oneTimePassword: string | null = null;
    if (userId === undefined) {
      oneTimePassword = generatePassword();
      const created = await createUser(tx, { email, password: oneTimePassword, name: input.name, mustChangePassword: true });
      userId = created.id;
    }
    const [inserted] = await tx
      .insert(memberships)
      .values({ orgId: access.orgId, userId, role: input.role })
      .onConflictDoNothing()
      .returning({ userId: memberships.userId });
    if (!inserted) {
      throw conflict(`${email} is already a member of this organization. Change their role in the list instead.`);
    }
    const member = await findMember(tx, access.orgId, userId);
    if (!member) throw new Error('a membership just inserted was not found');
    return { member, oneTimePassword };
  });
}

/**
 * Reads the organization's memberships with their rows locked, so that two admins demoting or
 * removing each other at the same moment cannot leave it with no admin.
 */
async function lockedMemberships(tx: Db, orgId: string) {
  return tx
    .select({ userId: memberships.userId, role: memberships.role })
    .from(memberships)
    .where(eq(memberships.orgId, orgId))
    .for('update');
}

/** Refuses a change that would take the organization's last admin away. */
async function guardLastAdmin(tx: Db, orgId: string, userId: string, what: string): Promise<Member> {
  const rows = await lockedMemberships(tx, orgId);
  const member = await findMember(tx, orgId, userId);
  if (!member) throw notFound(`Member ${userId}`);
  const admins = rows.filter((row) => row.role === 'admin');
  if (member.role === 'admin' && admins.length === 1) {
    throw conflict(
      `${member.email} is the only admin of this organization and cannot be ${what}. Make another member an admin first.`,
    );
  }
  return member;
}

export async function changeMemberRole(db: Db, access: OrgAccess, userId: string, role: Role): Promise<Member> {
  requireAdmin(access, ADMINS_ONLY);
  return db.transaction(async (tx) => {
    const member =
      role === 'admin'
        ? await findMember(tx, access.orgId, userId)
        : await guardLastAdmin(tx, access.orgId, userId, 'made a user');
    if (!member) throw notFound(`Member ${userId}`);
    if (member.role === role) return member;
    await tx
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.orgId, access.orgId), eq(memberships.userId, userId)));
    return { ...member, role };
  });
}

/** Takes the person out of the organization; their account, and their other memberships, stay. */
export async function removeMember(db: Db, access: OrgAccess, userId: string): Promise<void> {
  requireAdmin(access, ADMINS_ONLY);
  await db.transaction(async (tx) => {
    await guardLastAdmin(tx, access.orgId, userId, 'removed');
    await tx.delete(memberships).where(and(eq(memberships.orgId, access.orgId), eq(memberships.userId, userId)));
  });
}
