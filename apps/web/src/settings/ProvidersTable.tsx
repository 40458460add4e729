import type { KeySource, LlmProvider } from '../api/llmSettings';

const keySourceLabels: Record<KeySource, string> = {
  organization: 'Organization key',
  environment: 'Environment',
  none: '—',
};

function EnvNames({ provider }: { provider: LlmProvider }) {
  return (
    <span className="font-mono text-xs">
      {provider.api_key_env && <span className="block">{provider.api_key_env}</span>}
      <span className="block">{provider.base_url_env}</span>
    </span>
  );
}

/** Each provider the server knows, and whether and how it is configured. */
export function ProvidersTable({ providers }: { providers: LlmProvider[] }) {
  return (
    <div className="overflow-x-auto">
      <table aria-label="Providers" className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <thead className="text-xs font-medium tracking-wide text-slate-500 uppercase">
          <tr>
            <th scope="col" className="py-2 pr-4">
              Provider
            </th>
            <th scope="col" className="py-2 pr-4">
              Configured
            </th>
            <th scope="col" className="py-2 pr-4">
              Key source
            </th>
            <th scope="col" className="py-2 pr-4">
              Key
            </th>
            <th scope="col" className="py-2 pr-4">
              Base URL
            </th>
            <th scope="col" className="py-2">
              Environment variables
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 text-slate-800">
          {providers.map((provider) => (
            <tr key={provider.name}>
              <th scope="row" className="py-2 pr-4 font-medium">
                {provider.label}
              </th>
              <td className="py-2 pr-4">
                {provider.configured ? (
                  <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700">Configured</span>
                ) : (
                  <span className="text-slate-500">Not configured</span>
                )}
              </td>
              <td className="py-2 pr-4">{keySourceLabels[provider.key_source]}</td>
              <td className="py-2 pr-4 font-mono text-xs">{provider.api_key_preview ?? '—'}</td>
              <td className="max-w-56 truncate py-2 pr-4 font-mono text-xs" title={provider.base_url ?? undefined}>
                {provider.base_url ?? '—'}
              </td>
              <td className="py-2">
                <EnvNames provider={provider} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
