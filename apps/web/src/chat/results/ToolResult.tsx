import { type ReactNode, useState } from 'react';
import { ResourceLink } from '../ResourceLink';
import { RowsTable } from './RowsTable';
import { type ResultShape, shapeOfResult } from './resultShapes';
import { SchemaFieldsTable } from './SchemaFieldsTable';
import { ValuesTable } from './ValuesTable';
import { WebResults } from './WebResults';

const version = (value: number | null) => (value === null ? '' : `, version ${value}`);

function Headline({ children }: { children: ReactNode }) {
  return <p className="text-xs text-slate-700">{children}</p>;
}

function ShapeView({ shape, orgId }: { shape: ResultShape; orgId: string }) {
  const link = (href: string, name: string) => (
    <ResourceLink orgId={orgId} href={href}>
      {name}
    </ResourceLink>
  );
  switch (shape.kind) {
    case 'schema':
      return (
        <>
          <Headline>
            {shape.message ? `${shape.message}: ` : ''}schema {link(`schema:${shape.schemaRevid}`, shape.name)}
            {version(shape.version)}
          </Headline>
          <SchemaFieldsTable responseFormat={shape.responseFormat} label={`Fields of ${shape.name}`} />
        </>
      );
    case 'prompt':
      return (
        <Headline>
          {shape.message ? `${shape.message}: ` : ''}prompt {link(`prompt:${shape.promptRevid}`, shape.name)}
          {version(shape.version)}
          {shape.schemaRevid && <> · with {link(`schema:${shape.schemaRevid}`, 'its schema')}</>}
          {shape.model && <> · model {shape.model}</>}
        </Headline>
      );
    case 'extraction':
      return (
        <>
          <Headline>
            {shape.change ? (
              <>
                <span className="font-mono">{shape.change.path}</span>: {JSON.stringify(shape.change.previous)} →{' '}
                {JSON.stringify(shape.change.value)}
              </>
            ) : shape.promptRevid ? (
              <>Values extracted by {link(`prompt:${shape.promptRevid}`, shape.promptName ?? 'the prompt')}</>
            ) : (
              'Extracted values'
            )}
          </Headline>
          <ValuesTable values={shape.values} label="Extracted values" />
        </>
      );
    case 'extractions':
      if (shape.results.length === 0) return <Headline>No prompt has run on this document yet.</Headline>;
      return (
        <>
          {shape.results.map((result, index) => (
            <div key={result.promptRevid ?? index} className="space-y-1">
              <Headline>
                {result.promptRevid ? link(`prompt:${result.promptRevid}`, result.promptName ?? 'Prompt') : 'Prompt'}
              </Headline>
              <ValuesTable values={result.values} label={`Values of ${result.promptName ?? 'the prompt'}`} />
            </div>
          ))}
        </>
      );
    case 'tag':
      return (
        <Headline>
          {shape.message ? `${shape.message}: ` : ''}
          <span className="inline-flex items-center gap-1">
            <span aria-hidden="true" className="size-2.5 rounded-full" style={{ backgroundColor: shape.color ?? undefined }} />
            {link(`tag:${shape.id}`, shape.name)}
          </span>
        </Headline>
      );
    case 'list':
      return (
        <>
          <Headline>
            {shape.items.length === 0
              ? `No ${shape.what}.`
              : `${shape.total !== null && shape.total > shape.items.length ? `${shape.items.length} of ${shape.total}` : shape.items.length} ${shape.what}:`}
          </Headline>
          <ul className="space-y-0.5 text-xs">
            {shape.items.map((item, index) => (
              <li key={item.href ?? index}>
                {item.href ? link(item.href, item.name) : item.name}
                {item.detail && <span className="text-slate-500"> · {item.detail}</span>}
              </li>
            ))}
          </ul>
        </>
      );
    case 'rows':
      return <RowsTable shape={shape} />;
    case 'web':
      return <WebResults query={shape.query} provider={shape.provider} results={shape.results} />;
    case 'note':
      return (
        <Headline>
          {shape.deleted ? 'Deleted the note' : 'Note'} “{shape.name}”{shape.deleted ? '' : version(shape.version)}
          {shape.change && (
            <>
              {' · '}
              <span className="text-emerald-700">+{shape.change.additions}</span>{' '}
              <span className="text-red-700">−{shape.change.deletions}</span> lines
            </>
          )}
        </Headline>
      );
    case 'message':
      return <Headline>{shape.text}</Headline>;
    default:
      return null;
  }
}

/** The result as JSON, written out only once asked for: a large one costs nothing folded. */
function RawResult({ result }: { result: unknown }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer text-xs text-slate-500">Raw result</summary>
      {open && (
        <pre className="mt-1 max-h-64 overflow-auto font-mono text-xs whitespace-pre-wrap break-words text-slate-600">
          {JSON.stringify(result, null, 2)}
        </pre>
      )}
    </details>
  );
}

/** A call's result in words and tables, with the raw JSON one click away. */
export function ToolResult({ orgId, result, args, preview }: { orgId: string; result: unknown; args: unknown; preview: string }) {
  const shape = result === undefined ? ({ kind: 'unknown' } as const) : shapeOfResult(result, args);
  return (
    <div className="space-y-1 border-t border-slate-100 px-3 py-1.5">
      <p className="text-xs font-medium text-emerald-800">Result</p>
      {shape.kind === 'unknown' ? (
        <pre className="max-h-40 overflow-auto font-mono text-xs whitespace-pre-wrap break-words text-slate-600">{preview}</pre>
      ) : (
        <>
          <div className="max-h-72 space-y-1 overflow-auto">
            <ShapeView shape={shape} orgId={orgId} />
          </div>
          <RawResult result={result} />
        </>
      )}
    </div>
  );
}
