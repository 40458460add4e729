import { strictResponseFormat } from '@docagent/core/response-formats';
import { type FakeReply, heldReply, type RecordedRequest } from '@docagent/fake-llm';
import { idIn, lastUserText, outputsOfTurn, requestedSchema } from './responses-requests.ts';

/** The model of the workspace-layout test, scripted: what it answers to each message the test sends. */

export const SET_UP = 'Set up a schema for these invoices';
export const TELL_MORE = 'Tell me more about it';
export const MENTION_QUESTION = 'which fields does it have?';
export const TAKE_YOUR_TIME = 'Take your time with this one';
export const HELLO = 'Hello in a new thread';
export const TAG_IT = 'Tag it as urgent';
export const CHANGE_TOTAL = 'Please set the total to 1300';
const AUTO_CREATE_INSTRUCTION = 'Analyze this document. Create a schema';
export const LONG_ANSWER_LINES = 60;
export const INVOICE_VALUES = { invoice_number: 'INV-2024-0042', total: 1250.5 };
const SCHEMA_NAME = 'Invoice';

/** The model call of the turn the test stops: answered only once the turn is stopped. */
export const slow = heldReply({ text: 'Too late.' });

/** A schema with many described fields: its create_schema call is a long JSON, as a real model's is. */
const longSchema = strictResponseFormat(
  Object.fromEntries(
    Array.from({ length: 18 }, (_, index) => [
      `field_${index + 1}`,
      { type: 'string', description: `The ${index + 1}th value printed on the invoice, exactly as it is written there` },
    ]),
  ),
);
const invoiceSchema = strictResponseFormat({
  invoice_number: { type: 'string', description: 'As printed' },
  total: { type: 'number', description: 'Amount due' },
});

const longAnswer = (title: string) =>
  [`## ${title}`, ...Array.from({ length: LONG_ANSWER_LINES }, (_, index) => `- line ${index + 1} of ${title}`)].join('\n');

/** The headless auto-create run: schema, prompt, extraction, then its summary. */
function autoCreateReply(outputs: string[]): FakeReply {
  switch (outputs.length) {
    case 0:
      return { toolCalls: [{ name: 'create_schema', arguments: { name: SCHEMA_NAME, response_format: invoiceSchema } }] };
    case 1:
      return {
        toolCalls: [
          {
            name: 'create_prompt',
            arguments: {
              name: 'Invoice fields',
              content: 'Extract the number and total.',
              schema_id: idIn(outputs, 'schema_id'),
            },
          },
        ],
      };
    case 2:
      return { toolCalls: [{ name: 'run_extraction', arguments: {} }] };
    default:
      return { text: 'I set up extraction for this invoice.' };
  }
}

function agentReply(request: RecordedRequest): FakeReply {
  const asked = lastUserText(request);
  const outputs = outputsOfTurn(request);
  if (asked.includes(AUTO_CREATE_INSTRUCTION)) return autoCreateReply(outputs);
  if (asked.includes(SET_UP)) {
    return outputs.length === 0
      ? { toolCalls: [{ name: 'create_schema', arguments: { name: 'Long invoice', response_format: longSchema } }] }
      : { text: longAnswer('The schema is created') };
  }
  if (asked.includes(TELL_MORE)) return { text: longAnswer('More about it') };
  if (asked.includes(MENTION_QUESTION)) return { text: 'It has eighteen fields.' };
  if (asked.includes(HELLO)) return { text: 'Hello to you.' };
  if (asked.includes(TAG_IT)) {
    return outputs.length === 0
      ? { toolCalls: [{ name: 'create_tag', arguments: { name: 'urgent', description: 'Needs attention' } }] }
      : { text: 'Not tagged.' };
  }
  if (asked.includes(CHANGE_TOTAL)) {
    return outputs.length === 0
      ? { toolCalls: [{ name: 'update_extraction_field', arguments: { path: 'total', value: 1300 } }] }
      : { text: 'The total is 1300 now.' };
  }
  return { text: 'I do not know that one.' };
}

/** Extractions get the invoice's values (or the summary); the agent, its script. */
export async function handle(request: RecordedRequest): Promise<FakeReply> {
  if (!request.body?.tools) {
    const schema = JSON.stringify(requestedSchema(request) ?? {});
    return { text: JSON.stringify(schema.includes('invoice_number') ? INVOICE_VALUES : { summary: 'An invoice.' }) };
  }
  if (lastUserText(request).includes(TAKE_YOUR_TIME)) return slow.answer();
  return agentReply(request);
}
