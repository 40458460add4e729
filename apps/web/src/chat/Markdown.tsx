import Markdown, { defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { ResourceLink } from './ResourceLink';
import { isResourceHref } from './resourceLinks';

/** Keeps the agent's resource links (schema:, prompt:, tag:, document:), which the default would strip. */
function urlTransform(url: string): string {
  return isResourceHref(url) ? url : defaultUrlTransform(url);
}

/** The agent's Markdown: GitHub tables, code, and links to the organization's schemas, prompts, tags and documents. */
export function ChatMarkdown({ text, orgId }: { text: string; orgId: string }) {
  return (
    <div className="chat-markdown space-y-2 break-words [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:font-mono [&_code]:text-xs [&_ol]:list-decimal [&_ol]:pl-5 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-900 [&_pre]:p-2 [&_pre]:text-slate-100 [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_table]:w-full [&_table]:border-collapse [&_table]:text-xs [&_td]:border [&_td]:border-slate-200 [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:border-slate-200 [&_th]:bg-slate-50 [&_th]:px-2 [&_th]:py-1 [&_th]:text-left [&_ul]:list-disc [&_ul]:pl-5">
      <Markdown
        remarkPlugins={[remarkGfm]}
        urlTransform={urlTransform}
        components={{
          a: ({ href, children }) => (
            <ResourceLink orgId={orgId} href={href ?? ''}>
              {children}
            </ResourceLink>
          ),
          table: ({ children }) => (
            <div className="overflow-x-auto">
              <table>{children}</table>
            </div>
          ),
        }}
      >
        {text}
      </Markdown>
    </div>
  );
}
