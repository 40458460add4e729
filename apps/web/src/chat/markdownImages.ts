/**
 * Whether an image in Markdown the agent wrote may be loaded: only from the app itself. A remote
 * image would tell its host who read the answer, and a prompt-injected answer could carry data
 * out in its URL. (data: and blob: URLs never get here: react-markdown's URL transform drops them.)
 */
export function isLoadableImageSource(src: string, appOrigin: string): boolean {
  if (src.trim() === '') return false;
  try {
    return new URL(src, appOrigin).origin === appOrigin;
  } catch {
    return false;
  }
}
