import type { DocumentKind } from '@docagent/core';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * What the built web app loads, all from its own origin: its scripts and style sheets, pdf.js's
 * module worker (a same-origin file, so no blob: worker), the fonts, CMaps and decoders pdf.js
 * fetches, and the API. pdf.js compiles WebAssembly (JPEG 2000, JBIG2/CCITT fax, ICC colour, and
 * PostScript functions), which needs 'wasm-unsafe-eval' (it allows no JavaScript eval). Images are
 * the app's, data: URLs of its CSS, and blob: ones; no remote host, so that an image in an agent's
 * answer cannot call out.
 */
const APP_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "img-src 'self' data: blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * An uploaded file opened on its own is a document of this origin: it must run nothing and load
 * nothing. The browser's image page needs its inline styles.
 */
const STORED_FILE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'";

const HEADERS = {
  'content-security-policy': APP_POLICY,
  'x-content-type-options': 'nosniff',
  // For browsers that predate frame-ancestors.
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Every response, API and error ones too, carries them; routes may only tighten the policy. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (_request, reply) => {
    withSecurityHeaders(reply);
  });
}

/** For the answers Fastify gives before any hook runs (a URL it cannot route). */
export const withSecurityHeaders = (reply: FastifyReply): FastifyReply => reply.headers(HEADERS);

/** RFC 5987 leaves these out of a filename*; encodeURIComponent keeps them. */
const encodeFilename = (name: string) =>
  encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * An uploaded file's own headers. Only what the web app's viewer shows (PDFs, images) is served
 * inline; text, Markdown and CSV are downloads, so that no upload is ever a page of the app.
 */
export function storedFileHeaders(name: string, kind: DocumentKind): Record<string, string> {
  const disposition = kind === 'pdf' || kind === 'image' ? 'inline' : 'attachment';
  const asciiName = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return {
    'content-disposition': `${disposition}; filename="${asciiName}"; filename*=UTF-8''${encodeFilename(name)}`,
    'content-security-policy': STORED_FILE_POLICY,
  };
}
