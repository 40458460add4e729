import { Link } from 'react-router';
import { useCurrentOrg } from '../layout/OrgRoute';
import { settingsPath } from '../settings/sections';

/** Said in place of results when the server has no model to run prompts with, with where to fix it. */
export function NoModelNotice({ hint }: { hint: string }) {
  const orgId = useCurrentOrg().id;
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      <p className="font-medium">No model is configured yet.</p>
      <p className="mt-1 text-amber-800">{hint}</p>
      <p className="mt-1 text-amber-800">
        The prompts run on this document once a model is available.{' '}
        <Link to={settingsPath(orgId, 'models')} className="font-medium underline underline-offset-2">
          Open Settings → Models
        </Link>
      </p>
    </div>
  );
}
