import Markdown, { defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { isLoadableImageSource } from './markdownImages';
import { ResourceLink } from './ResourceLink';
import { isResourceHref } from './resourceLinks';

/** Keeps the agent's resource links (schema:, prompt:, tag:, document:), which the default would strip. */
function urlTransform(url: string): string {
  return isResourceHref(url) ? url : defaultUrlTransform(url);
}

/** An image that is not loaded (see isLoadableImageSource): its address instead of its pixels. */
function UnloadedImage({ src, alt }: { src: string; alt: string }) {
  return (
    <span
      title="Images from other sites are not loaded"
      className="inline-block rounded border border-dashed border-slate-300 px-1.5 py-0.5 text-xs text-slate-600"
    >
      Image {alt === '' ? '' : `“${alt}” `}not loaded{src === '' ? '' : ': '}
      <span className="font-mono break-all">{src}</span>
    </span>
  );
}

/** The agent's Markdown: GitHub tables, code, and links to the organization's schemas, prompts, tags and documents. */
export function ChatMarkdown({ text, orgId }: { text: string; orgId: string }) {
  return (
    <div className="chat-markdown space-y-2 break-words [&_h1]:text-base [&_h1]:font-semibold [&_h2]:text-base [&_h2]:font-semibold [&_h3]:font-semibold [&_h4]:font-semibold [&_h5]:font-medium [&_h6]:font-medium [&_blockquote]:border-l-2 [&_blockquote]:border-slate-300 [&_blockquote]:pl-3 [&_blockquote]:text-slate-600 [&_hr]:border-slate-200 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:font-mono [&_code]:text-xs [&_ol]:list-decimal [&_ol]:pl-5 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-900 [&_pre]:p-2 [&_pre]:text-slate-100 [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_table]:w-full [&_table]:border-collapse [&_table]:text-xs [&_td]:border [&_td]:border-slate-200 [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:border-slate-200 [&_th]:bg-slate-50 [&_th]:px-2 [&_th]:py-1 [&_th]:text-left [&_ul]:list-disc [&_ul]:pl-5">
      <Markdown
        remarkPlugins={[remarkGfm]}
        urlTransform={urlTransform}
        components={{
          a: ({ href, children }) => (
            <ResourceLink orgId={orgId} href={href ?? ''}>
              {children}
            </ResourceLink>
          ),
          img: ({ src, alt }) => {
            const url = typeof src === 'string' ? src : '';
            return isLoadableImageSource(url, window.location.origin) ? (
              <img src={url} alt={alt ?? ''} className="max-w-full" />
            ) : (
              <UnloadedImage src={url} alt={alt ?? ''} />
            );
          },
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
