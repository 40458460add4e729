import type { Db } from '../db/database.ts';
import { createApiToken } from './api-tokens.ts';
import { createOrganization, setMembership } from './organizations.ts';
import { generatePassword } from './secrets.ts';
import { countUsers, createUser } from './users.ts';

export interface FirstStartCredentials {
  email: string;
  password: string;
  orgId: string;
  orgName: string;
  apiToken: string;
}

export const FIRST_ADMIN_EMAIL = 'admin@docagent.local';

/**
 * On a database with no users, creates the first admin, an organization and an API token,
 * and returns the secrets, which exist nowhere else. Callers run it under the migration
 * lock so that two servers starting together create one admin, not two.
 */
export async function bootstrapIfEmpty(db: Db): Promise<FirstStartCredentials | undefined> {
  if ((await countUsers(db)) > 0) return undefined;
  return db.transaction(async (tx) => {
    const password = generatePassword();
    const user = await createUser(tx, { email: FIRST_ADMIN_EMAIL, password, name: 'Administrator', mustChangePassword: true });
    const org = await createOrganization(tx, { name: 'My organization' });
    await setMembership(tx, { orgId: org.id, userId: user.id, role: 'admin' });
    const token = await createApiToken(tx, { orgId: org.id, name: 'first-start token', createdBy: user.id });
    return { email: user.email, password, orgId: org.id, orgName: org.name, apiToken: token.token };
  });
}
