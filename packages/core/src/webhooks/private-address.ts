import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { invalidInput } from '../errors.ts';

/** Loopback, RFC 1918 private, link-local, unique-local IPv6 and unspecified addresses. */
const PRIVATE = new BlockList();
PRIVATE.addSubnet('0.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('169.254.0.0', 16, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

export const ALLOW_PRIVATE_HINT =
  'Set DOCAGENT_WEBHOOK_ALLOW_PRIVATE=true on the server if sending webhooks into the private network is intended.';

/** Whether an IP address (v4 or v6, IPv4-mapped included) is one a webhook must not reach by default. */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 4) return PRIVATE.check(ip, 'ipv4');
  if (family !== 6) return false;
  // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) reaches the IPv4 host it names.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return PRIVATE.check(mapped[1], 'ipv4');
  return PRIVATE.check(ip, 'ipv6');
}

export type AddressLookup = (hostname: string) => Promise<string[]>;

const systemLookup: AddressLookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** The URL as a webhook target, or an invalid_input saying what is wrong with it. */
export function parseWebhookUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidInput(`"${url.slice(0, 200)}" is not a URL; give an absolute http:// or https:// address.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalidInput(`A webhook URL must start with http:// or https://, not ${parsed.protocol}//.`);
  }
  if (parsed.username || parsed.password) {
    throw invalidInput('A webhook URL may not hold a user name or password; the signature authenticates deliveries.');
  }
  return parsed;
}

/**
 * Refuses a URL whose host is, or resolves to, a private address unless those are allowed: checked
 * when the endpoint is saved; each attempt checks the address it connects to (webhook-post.ts),
 * since DNS answers may change.
 */
export async function checkWebhookTarget(url: string, options: { allowPrivate: boolean; lookup?: AddressLookup }): Promise<URL> {
  const parsed = parseWebhookUrl(url);
  if (options.allowPrivate) return parsed;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch {
      throw invalidInput(`The host ${host} of the webhook URL could not be resolved; check its spelling and DNS.`);
    }
  }
  const blocked = addresses.find(isPrivateAddress);
  if (blocked !== undefined) {
    const at = blocked === host ? '' : ` (it resolves to ${blocked})`;
    throw invalidInput(`The webhook URL's host ${host} is a private or local address${at}. ${ALLOW_PRIVATE_HINT}`);
  }
  return parsed;
}
