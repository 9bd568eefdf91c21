import { ArgumentMetadata } from '@nestjs/common';
import { IsBoolean } from 'class-validator';
import { ProblemException } from '../problems/problem.exception';
import { NameField, Omittable } from './fields';
import { createValidationPipe } from './validation';

class CreateThing {
  @NameField({ required: true, example: 'Thing' })
  name: string;

  @Omittable()
  @IsBoolean()
  enabled?: boolean;
}

class UpdateThing {
  @NameField({ required: false, example: 'Thing' })
  name?: string;
}

const pipe = createValidationPipe();
const asBody = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype });

async function problemOf(value: unknown, metatype: ArgumentMetadata['metatype'] = CreateThing) {
  const error = await pipe.transform(value, asBody(metatype)).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProblemException);
  const problem = error as ProblemException;
  return { status: problem.status, code: problem.code, detail: problem.detail, errors: problem.extensions.errors };
}

describe('createValidationPipe', () => {
  it('returns an instance with trimmed names', async () => {
    const value = await pipe.transform({ name: '  Thing  ', enabled: true }, asBody(CreateThing));
    expect(value).toBeInstanceOf(CreateThing);
    expect(value).toEqual({ name: 'Thing', enabled: true });
  });

  it('lets optional fields be left out', async () => {
    await expect(pipe.transform({ name: 'Thing' }, asBody(CreateThing))).resolves.toEqual({ name: 'Thing' });
    await expect(pipe.transform({}, asBody(UpdateThing))).resolves.toEqual({});
  });

  it('rejects null for optional fields instead of passing it on', async () => {
    expect(await problemOf({ name: 'Thing', enabled: null })).toEqual({
      status: 400,
      code: 'validation_failed',
      detail: 'enabled must be a boolean value',
      errors: [{ field: 'enabled', messages: ['enabled must be a boolean value'] }],
    });
    expect((await problemOf({ name: null }, UpdateThing)).errors).toEqual([
      {
        field: 'name',
        messages: ['name must be a string', 'name should not be empty', 'name must be shorter than or equal to 200 characters'],
      },
    ]);
  });

  it('rejects unknown fields, listing every problem in one answer', async () => {
    expect(await problemOf({ name: '', extra: 1, enabled: 'yes' })).toEqual({
      status: 400,
      code: 'validation_failed',
      detail: 'property extra should not exist; name should not be empty; enabled must be a boolean value',
      errors: [
        { field: 'extra', messages: ['property extra should not exist'] },
        { field: 'name', messages: ['name should not be empty'] },
        { field: 'enabled', messages: ['enabled must be a boolean value'] },
      ],
    });
  });

  it.each([
    ['__proto__', '{"name":"Thing","__proto__":{"admin":true}}', ['__proto__']],
    ['constructor', '{"name":"Thing","constructor":{"prototype":{"admin":true}}}', ['constructor']],
    ['nested __proto__', '{"name":"Thing","extra":{"__proto__":{"admin":true}}}', ['extra.__proto__']],
  ])('rejects %s like any other unknown field (class-transformer would drop it silently)', async (_, json, fields) => {
    const problem = await problemOf(JSON.parse(json));
    expect(problem.errors).toEqual(fields.map((field) => ({ field, messages: [`property ${field} should not exist`] })));
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('rejects a __proto__ query parameter', async () => {
    const query = Object.assign(Object.create(null), { ['__proto__']: 'x' }) as unknown;
    const error = await pipe.transform(query, { type: 'query', metatype: UpdateThing }).catch((thrown: unknown) => thrown);
    expect((error as ProblemException).extensions.errors).toEqual([
      { field: '__proto__', messages: ['property __proto__ should not exist'] },
    ]);
  });

  it('leaves path parameters alone', async () => {
    await expect(pipe.transform('constructor', { type: 'param', metatype: String, data: 'id' })).resolves.toBe('constructor');
  });
});
