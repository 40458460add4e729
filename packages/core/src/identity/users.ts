import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { users } from '../db/schema.ts';
import { conflict, invalidInput, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { hashPassword, verifyPassword } from './secrets.ts';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;

export interface User {
  id: string;
  email: string;
  name: string;
  mustChangePassword: boolean;
  createdAt: Date;
}

const publicColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  mustChangePassword: users.mustChangePassword,
  createdAt: users.createdAt,
};

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw invalidInput(`A password must have ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`);
  }
}

export async function createUser(
  db: Db,
  input: { email: string; password: string; name?: string; mustChangePassword?: boolean },
): Promise<User> {
  const email = normalizeEmail(input.email);
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw invalidInput(`"${input.email}" is not an email address.`);
  checkPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const [row] = await db
    .insert(users)
    .values({ id: newId(), email, name: input.name ?? '', passwordHash, mustChangePassword: input.mustChangePassword ?? false })
    .onConflictDoNothing({ target: users.email })
    .returning(publicColumns);
  if (!row) throw conflict(`A user with email ${email} already exists.`);
  return row;
}

export async function getUser(db: Db, userId: string): Promise<User> {
  const [row] = await db.select(publicColumns).from(users).where(eq(users.id, userId));
  if (!row) throw notFound(`User ${userId}`);
  return row;
}

/** Finds a user by id or by email, as the admin commands accept either. */
export async function findUser(db: Db, idOrEmail: string): Promise<User> {
  const byEmail = idOrEmail.includes('@');
  const [row] = await db
    .select(publicColumns)
    .from(users)
    .where(byEmail ? eq(users.email, normalizeEmail(idOrEmail)) : eq(users.id, idOrEmail));
  if (!row) throw notFound(`User ${idOrEmail}`);
  return row;
}

export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row?.n ?? 0;
}

/** The stored hash for a login attempt, or undefined when no such user exists. */
export async function findPasswordHash(db: Db, email: string): Promise<{ id: string; passwordHash: string } | undefined> {
  const [row] = await db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  return row;
}

export async function changePassword(db: Db, userId: string, currentPassword: string, newPassword: string): Promise<void> {
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  if (!row || !(await verifyPassword(currentPassword, row.passwordHash))) {
    throw invalidInput('current_password is wrong. Type your current password again.');
  }
  checkPassword(newPassword);
  if (newPassword === currentPassword) throw invalidInput('The new password must differ from the current one.');
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(newPassword), mustChangePassword: false })
    .where(eq(users.id, userId));
}
