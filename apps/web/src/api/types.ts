export interface User {
  id: string;
  email: string;
  name: string;
  must_change_password: boolean;
}

export interface Organization {
  id: string;
  name: string;
  role: string;
}

export interface Session {
  user: User;
  organizations: Organization[];
  csrf_token: string;
}

export interface ApiToken {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  created_by: { id: string; email: string } | null;
}

export interface CreatedApiToken {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  token: string;
}
