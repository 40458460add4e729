import type { Db } from '../db/database.ts';
import { type OrganizationMembership, listOrganizationsOfUser } from './organizations.ts';
import { type User, getUser } from './users.ts';

export interface Account {
  user: User;
  organizations: OrganizationMembership[];
}

export async function describeAccount(db: Db, userId: string): Promise<Account> {
  const [user, organizations] = await Promise.all([getUser(db, userId), listOrganizationsOfUser(db, userId)]);
  return { user, organizations };
}
