import { z } from 'zod';

/** Shapes shared by several route files. */
export const ErrorBodySchema = z.object({ detail: z.string(), code: z.string() });

export const OrgParamsSchema = z.object({ organization_id: z.string().min(1).max(64) });

export const OrganizationSchema = z.object({ id: z.string(), name: z.string(), role: z.enum(['admin', 'user']) });

export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);
