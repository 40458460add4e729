/** A user's search text for LIKE/ILIKE: its wildcards (% and _) and the escape (\) match themselves. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
