/**
 * A strict structured-output response_format, as people and agents write them: every property
 * required unless told otherwise, no others allowed. Tests build their schemas with it.
 */
export function strictResponseFormat(properties: Record<string, unknown>, required = Object.keys(properties)) {
  return {
    type: 'json_schema',
    json_schema: {
      name: 'invoice',
      strict: true,
      schema: { type: 'object', properties, required, additionalProperties: false },
    },
  };
}
