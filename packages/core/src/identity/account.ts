import type { Db } from '../db/database.ts';
import { listOrganizationsOfUser, type OrganizationMembership } from './organizations.ts';
import { getUser, type User } from './users.ts';

export interface Account {
  user: User;
  organizations: OrganizationMembership[];
}

export async function describeAccount(db: Db, userId: string): Promise<Account> {
  const [user, organizations] = await Promise.all([getUser(db, userId), listOrganizationsOfUser(db, userId)]);
  return { user, organizations };
}
