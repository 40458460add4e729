import { useSearchParams } from 'react-router';

/** The older version the URL asks to show (?version=N), or null for the current one. */
export function useShownVersion(): number | null {
  const [searchParams] = useSearchParams();
  const version = Number.parseInt(searchParams.get('version') ?? '', 10);
  return Number.isInteger(version) && version > 0 ? version : null;
}
