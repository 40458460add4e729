import { z } from 'zod';

/** The control tool that pauses the turn to ask the person something (seed 003's request_input). */
export const REQUEST_INPUT = 'request_input';

export const requestInputTool = {
  name: REQUEST_INPUT,
  description:
    "Ask the person a question and wait for the answer, when you cannot go on without it (e.g. which of two totals is the right one). The answer comes back as this tool's result.",
  input: z.strictObject({ question: z.string().min(1).max(2000).describe('The question, in one or two sentences') }),
};
