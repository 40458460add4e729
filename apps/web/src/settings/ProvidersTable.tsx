import type { KeySource, LlmProvider } from '../api/llmSettings';

const keySourceLabels: Record<KeySource, string> = {
  organization: 'Organization key',
  environment: 'Environment',
  none: '',
};

const CELL = 'py-1 pr-4 align-top';

function EnvNames({ provider }: { provider: LlmProvider }) {
  return (
    <span className="flex flex-wrap gap-x-2 font-mono text-xs">
      {provider.api_key_env && <span>{provider.api_key_env}</span>}
      <span>{provider.base_url_env}</span>
    </span>
  );
}

/** Each provider the server knows, whether and how it is configured, and the variables that configure it. */
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
              <th scope="row" className={`${CELL} font-medium`}>
                {provider.label}
              </th>
              <td className={`${CELL} whitespace-nowrap`}>
                {provider.configured ? (
                  <>
                    <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700">
                      Configured
                    </span>
                    <span className="ml-2">{keySourceLabels[provider.key_source]}</span>
                    {provider.api_key_preview && <span className="ml-2 font-mono text-xs">{provider.api_key_preview}</span>}
                  </>
                ) : (
                  <span className="text-slate-500">Not configured</span>
                )}
              </td>
              <td className={`${CELL} max-w-48 truncate font-mono text-xs`} title={provider.base_url ?? undefined}>
                {provider.base_url ?? '—'}
              </td>
              <td className="py-1 align-top">
                <EnvNames provider={provider} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
