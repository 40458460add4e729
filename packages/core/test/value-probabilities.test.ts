import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { answerLogprobs } from '../src/extraction/answer-logprobs.ts';
import { citeResult } from '../src/grounding/citations.ts';
import { answerProbabilities, type TokenLogprob, unchangedProbabilities } from '../src/grounding/value-probabilities.ts';
import type { PageText } from '../src/text/types.ts';

/** Tokens spelling `parts` in order, each with its log-probability. */
const tokens = (...parts: Array<[string, number]>): TokenLogprob[] => parts.map(([token, logprob]) => ({ token, logprob }));
const joined = (ts: TokenLogprob[]) => ts.map((t) => t.token).join('');

describe('how sure the model was of each value', () => {
  const answer = tokens(
    ['{"', 0],
    ['total', 0],
    ['":', 0],
    [' 12', Math.log(0.5)],
    ['34.5', Math.log(0.8)],
    [',"', 0],
    ['vendor', 0],
    ['":"', 0],
    ['Ac', Math.log(0.9)],
    ['me', 0],
    [' GmbH', 0],
    ['","', Math.log(0.1)],
    ['lines', 0],
    ['":[{"', 0],
    ['sku', 0],
    ['":"', 0],
    ['A', Math.log(0.7)],
    ['"},{"', 0],
    ['sku', 0],
    ['":"",', 0],
    ['"n', 0],
    ['":', 0],
    ['null', Math.log(0.2)],
    ['}]}', 0],
  );
  const text = joined(answer);
  const value = JSON.parse(text) as Record<string, unknown>;

  test('the product of the probabilities of the tokens spelling a value, by path; quotes and separators do not count', () => {
    assert.deepEqual(answerProbabilities(text, answer, value), {
      total: 0.4,
      vendor: 0.9,
      'lines[0].sku': 0.7,
    });
  });

  test('only values stored as the model wrote them', () => {
    assert.deepEqual(answerProbabilities(text, answer, { ...value, vendor: 'Acme' }), { total: 0.4, 'lines[0].sku': 0.7 });
  });

  test('nothing when the tokens do not spell the text (a character split into bytes) or the text is no JSON object', () => {
    const broken = answer.map((t) => (t.token === 'me' ? { ...t, token: '\ufffd' } : t));
    assert.deepEqual(answerProbabilities(text, broken, value), {});
    assert.deepEqual(answerProbabilities('[1]', tokens(['[1]', 0]), {}), {});
    assert.deepEqual(answerProbabilities('{"a": 1', tokens(['{"a": 1', 0]), { a: 1 }), { a: 1 });
  });

  test("a person's correction drops the model's probability of that value only", () => {
    const probabilities = { total: 0.4, vendor: 0.9 };
    assert.deepEqual(unchangedProbabilities(probabilities, value, { ...value, vendor: 'Acme AG' }), { total: 0.4 });
  });

  test('a citation is no surer than the model: confidence is the lower of the match and the probability', () => {
    const words = ['Acme', 'GmbH', 'Total', '1234.50'];
    const items = words.map((text, i) => ({ text, x: 50 + i * 60, y: 50, width: text.length * 6, height: 10 }));
    const page: PageText = { page: 1, text: words.join(' '), width: 612, height: 792, engine: 'pdf_text', items };
    const [total, vendor] = citeResult([page], { total: 1234.5, vendor: 'Acme GmbH' }, { total: 0.4, vendor: 0.99 });
    assert.deepEqual([total?.probability, total?.confidence], [0.4, 0.4]);
    assert.equal(vendor?.probability, 0.99);
    assert.ok((vendor?.confidence ?? 1) < 0.99, 'the match decides when it is the less sure');
  });

  test("the tokens from OpenAI's Responses (one list per text part) and Chat Completions (one list) metadata", () => {
    const token = { token: 'x', logprob: -0.1, top_logprobs: [] };
    assert.deepEqual(answerLogprobs({ openai: { logprobs: [[token], [token]] } }), [
      { token: 'x', logprob: -0.1 },
      { token: 'x', logprob: -0.1 },
    ]);
    assert.deepEqual(answerLogprobs({ openai: { logprobs: [token] } }), [{ token: 'x', logprob: -0.1 }]);
    assert.equal(answerLogprobs({ openai: { logprobs: [] } }), undefined);
    assert.equal(answerLogprobs({ anthropic: {} }), undefined);
    assert.equal(answerLogprobs(undefined), undefined);
  });
});
