import {
  createApiToken,
  createOrganization,
  createUser,
  type Db,
  findUser,
  generatePassword,
  getOrganization,
  invalidInput,
  revokeApiToken,
  setMembership,
} from '@docagent/core';

type Flags = Record<string, string | boolean | undefined>;

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value.length === 0) throw invalidInput(`Missing --${name}. See "docagent help".`);
  return value;
}

function optional(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
}

function role(flags: Flags): 'admin' | 'user' {
  const value = optional(flags, 'role') ?? 'user';
  if (value !== 'admin' && value !== 'user') throw invalidInput(`--role must be "admin" or "user", not "${value}".`);
  return value;
}

/** One admin command: what it prints as JSON, and as a line for people. */
export interface AdminResult {
  json: Record<string, unknown>;
  text: string;
}

export const ADMIN_COMMANDS = {
  async 'create-user'(db: Db, flags: Flags): Promise<AdminResult> {
    const given = optional(flags, 'password');
    const password = given ?? generatePassword();
    const user = await createUser(db, {
      email: required(flags, 'email'),
      password,
      name: optional(flags, 'name'),
      mustChangePassword: given === undefined,
    });
    const json: Record<string, unknown> = { user_id: user.id, email: user.email };
    if (given === undefined) json.password = password;
    const text =
      `Created user ${user.email} (${user.id}).` +
      (given === undefined ? `\nOne-time password (shown once; changed at first sign-in): ${password}` : '');
    return { json, text };
  },

  async 'create-org'(db: Db, flags: Flags): Promise<AdminResult> {
    const admin = optional(flags, 'admin');
    const adminUser = admin ? await findUser(db, admin) : undefined;
    const org = await db.transaction(async (tx) => {
      const created = await createOrganization(tx, { name: required(flags, 'name') });
      if (adminUser) await setMembership(tx, { orgId: created.id, userId: adminUser.id, role: 'admin' });
      return created;
    });
    return {
      json: { organization_id: org.id, name: org.name, ...(adminUser ? { admin_user_id: adminUser.id } : {}) },
      text: `Created organization ${org.name} (${org.id})${adminUser ? ` with admin ${adminUser.email}` : ''}.`,
    };
  },

  async 'add-member'(db: Db, flags: Flags): Promise<AdminResult> {
    const org = await getOrganization(db, required(flags, 'org'));
    const user = await findUser(db, required(flags, 'user'));
    const r = role(flags);
    await setMembership(db, { orgId: org.id, userId: user.id, role: r });
    return {
      json: { organization_id: org.id, user_id: user.id, role: r },
      text: `${user.email} is now ${r === 'admin' ? 'an admin' : 'a user'} of ${org.name}.`,
    };
  },

  async 'create-token'(db: Db, flags: Flags): Promise<AdminResult> {
    const org = await getOrganization(db, required(flags, 'org'));
    const owner = optional(flags, 'user');
    const user = owner ? await findUser(db, owner) : undefined;
    const token = await createApiToken(db, { orgId: org.id, name: required(flags, 'name'), createdBy: user?.id ?? null });
    return {
      json: { token_id: token.id, organization_id: org.id, token: token.token },
      text: `Created API token ${token.name} (${token.id}) for ${org.name}. Shown once:\n${token.token}`,
    };
  },

  async 'revoke-token'(db: Db, flags: Flags): Promise<AdminResult> {
    const tokenId = required(flags, 'token-id');
    await revokeApiToken(db, { tokenId, actor: null });
    return { json: { token_id: tokenId, revoked: true }, text: `Revoked API token ${tokenId}.` };
  },
} satisfies Record<string, (db: Db, flags: Flags) => Promise<AdminResult>>;

export type AdminCommand = keyof typeof ADMIN_COMMANDS;
export const isAdminCommand = (name: string): name is AdminCommand => Object.hasOwn(ADMIN_COMMANDS, name);
