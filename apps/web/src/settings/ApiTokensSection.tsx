import type { Organization } from '../api/types';
import { CreateTokenForm } from './CreateTokenForm';
import { TokensTable } from './TokensTable';

export function ApiTokensSection({ org }: { org: Organization }) {
  return (
    <section aria-labelledby="api-tokens-heading" className="rounded-lg border border-slate-200 bg-white">
      <div className="border-b border-slate-200 px-6 py-4">
        <h2 id="api-tokens-heading" className="text-base font-semibold text-slate-900">
          API tokens
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Tokens let scripts and integrations call the docagent API on behalf of {org.name}.
        </p>
      </div>
      <div className="space-y-6 px-6 py-5">
        <CreateTokenForm orgId={org.id} />
        <TokensTable orgId={org.id} />
      </div>
    </section>
  );
}
