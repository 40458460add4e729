import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, test } from 'node:test';
import { checkWebhookTarget, isPrivateAddress } from '../src/webhooks/private-address.ts';
import {
  newWebhookSecret,
  signWebhook,
  verifyWebhookSignature,
  WEBHOOK_HEADERS,
  webhookHeaders,
} from '../src/webhooks/signature.ts';

/** The README's verification recipe, as a receiver would write it (no docagent code). */
function readmeVerify(secret: string, headers: Record<string, string>, rawBody: string): boolean {
  const timestamp = headers['docagent-webhook-timestamp'] ?? '';
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
  const given = headers['docagent-webhook-signature'] ?? '';
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
  return fresh && given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

describe('webhook signatures', () => {
  test('the headers a delivery carries verify with the documented recipe', () => {
    const secret = newWebhookSecret();
    assert.match(secret, /^whsec_[\w-]{43}$/);
    const body = JSON.stringify({ id: 'e1', type: 'document.uploaded', data: { document_id: 'd1' } });
    const headers = webhookHeaders(secret, 'e1', body, Date.now() / 1000);
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(headers[WEBHOOK_HEADERS.id], 'e1');
    assert.match(headers[WEBHOOK_HEADERS.signature] ?? '', /^v1=[0-9a-f]{64}$/);
    assert.equal(readmeVerify(secret, headers, body), true);
    assert.equal(readmeVerify(secret, headers, `${body} `), false, 'a changed body fails');
    assert.equal(readmeVerify(newWebhookSecret(), headers, body), false, 'another secret fails');
  });

  test('a known vector: HMAC-SHA256 of "<timestamp>.<body>"', () => {
    assert.equal(
      signWebhook('whsec_test', 1700000000, '{"a":1}'),
      `v1=${createHmac('sha256', 'whsec_test').update('1700000000.{"a":1}').digest('hex')}`,
    );
  });

  test('verification refuses old timestamps and malformed signatures', () => {
    const secret = newWebhookSecret();
    const signature = signWebhook(secret, 1000, 'x');
    assert.equal(verifyWebhookSignature({ secret, body: 'x', timestamp: '1000', signature, now: 1100 }), true);
    assert.equal(verifyWebhookSignature({ secret, body: 'x', timestamp: '1000', signature, now: 2000 }), false);
    assert.equal(verifyWebhookSignature({ secret, body: 'x', timestamp: 'soon', signature, now: 1000 }), false);
    assert.equal(verifyWebhookSignature({ secret, body: 'x', timestamp: '1000', signature: 'v1=00', now: 1000 }), false);
  });
});

describe('private addresses', () => {
  test('loopback, RFC 1918, link-local, unique-local and unspecified addresses are private', () => {
    for (const ip of [
      '127.0.0.1',
      '127.8.9.10',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      '::ffff:10.1.2.3',
      '::ffff:127.0.0.1',
      '[::1]',
    ]) {
      assert.equal(isPrivateAddress(ip), true, ip);
    }
    for (const ip of [
      '8.8.8.8',
      '172.32.0.1',
      '192.169.0.1',
      '2001:db8::1',
      '2606:4700::1111',
      '::ffff:1.1.1.1',
      'example.com',
    ]) {
      assert.equal(isPrivateAddress(ip), false, ip);
    }
  });

  test('a URL is refused when its host is or resolves to a private address, unless allowed', async () => {
    const lookup = async (host: string) => (host === 'inside.test' ? ['192.168.0.7'] : ['93.184.216.34']);
    for (const url of ['http://127.0.0.1:9000/hook', 'http://10.1.2.3/', 'http://[::1]:8080/x', 'https://inside.test/hook']) {
      await assert.rejects(checkWebhookTarget(url, { allowPrivate: false, lookup }), (error: Error) => {
        assert.match(error.message, /private or local address/);
        assert.match(error.message, /DOCAGENT_WEBHOOK_ALLOW_PRIVATE=true/);
        return true;
      });
      await checkWebhookTarget(url, { allowPrivate: true, lookup });
    }
    assert.equal((await checkWebhookTarget('https://outside.test/hook', { allowPrivate: false, lookup })).host, 'outside.test');
  });

  test('only absolute http(s) URLs without credentials are targets', async () => {
    for (const [url, message] of [
      ['not a url', /not a URL/],
      ['ftp://example.test/', /http:\/\/ or https:\/\//],
      ['https://user:pw@example.test/', /user name or password/],
    ] as const) {
      await assert.rejects(checkWebhookTarget(url, { allowPrivate: true }), message);
    }
  });

  test('a host that does not resolve is refused with the reason', async () => {
    const lookup = async () => {
      throw new Error('ENOTFOUND');
    };
    await assert.rejects(checkWebhookTarget('https://nowhere.test/', { allowPrivate: false, lookup }), /could not be resolved/);
  });
});
