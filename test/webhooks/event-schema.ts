import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';

type Schema = Record<string, unknown>;

/**
 * Every object schema closed (`additionalProperties: false`): a field the document does not name
 * fails the check. The discriminator goes (Ajv does not take a `mapping`; the event types of the
 * `oneOf` are disjoint, so it decides alone).
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const entries = Object.entries(schema).filter(([key]) => key !== 'discriminator');
  const copy = Object.fromEntries(entries.map(([key, value]) => [key, closed(value)])) as Schema;
  if (copy.type === 'object' && copy.properties) copy.additionalProperties = false;
  return copy;
}

/**
 * A check of delivery bodies against `WebhookEvent` of the management API's served OpenAPI
 * document: it answers the problems of a body (empty when it matches the schema of its type).
 */
export async function webhookEventCheck(managementUrl: string): Promise<(body: unknown) => string[]> {
  const document = (await request(managementUrl).get('/api/v2/openapi.json').expect(200)).body;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ components: closed(document.components) }, 'openapi');
  const validate = ajv.compile({ $ref: 'openapi#/components/schemas/WebhookEvent' });
  return (body) => (validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`));
}
