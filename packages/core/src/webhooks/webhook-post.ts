import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { ALLOW_PRIVATE_HINT, isPrivateAddress } from './private-address.ts';

/** How one attempt went: a status when the receiver answered, an error saying what went wrong otherwise. */
export interface PostOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

const KEEP_OF_BODY = 300;

/**
 * Resolves like the system does, but refuses private answers: the address checked is the address
 * connected to, so a DNS answer that changes between the check and the connection cannot slip by.
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as unknown as Array<{ address: string; family: number }>;
    const blocked = list.find((a) => isPrivateAddress(a.address));
    if (blocked) {
      return callback(
        new Error(`${hostname} resolves to ${blocked.address}, a private or local address. ${ALLOW_PRIVATE_HINT}`),
        '',
        0,
      );
    }
    if (options.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
    const first = list[0];
    if (!first) return callback(new Error(`${hostname} has no address.`), '', 0);
    callback(null, first.address, first.family);
  });
};

/**
 * POSTs the body and reports how the receiver answered. Redirects are not followed (a 3xx is a
 * failure that says where it pointed): following one would send the signed body somewhere the
 * admin never named, possibly inside the network. The whole attempt is bounded by `timeoutMs`.
 */
export function postWebhook(
  url: URL,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostOutcome> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) {
    return Promise.resolve({
      ok: false,
      statusCode: null,
      error: `${host} is a private or local address. ${ALLOW_PRIVATE_HINT}`,
    });
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'docagent-webhooks/1' },
        ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let kept = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (kept.length < KEEP_OF_BODY) kept += chunk.slice(0, KEEP_OF_BODY - kept.length);
        });
        res.on('error', () => {});
        res.on('end', () => finish(outcomeOf(status, res.headers.location, kept)));
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, statusCode: null, error: `The receiver did not answer within ${options.timeoutMs / 1000} s.` });
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (error) => finish({ ok: false, statusCode: null, error: `The request failed: ${error.message}` }));
    req.end(body);
  });
}

function outcomeOf(status: number, location: string | undefined, body: string): PostOutcome {
  if (status >= 200 && status < 300) return { ok: true, statusCode: status, error: null };
  if (status >= 300 && status < 400) {
    const to = location ? ` to ${location.slice(0, 300)}` : '';
    return {
      ok: false,
      statusCode: status,
      error: `The receiver redirected (${status})${to}; redirects are not followed, so set the endpoint's URL to the final address.`,
    };
  }
  const said = body.trim() ? `: ${body.trim()}` : '';
  return { ok: false, statusCode: status, error: `The receiver answered ${status}${said}` };
}
