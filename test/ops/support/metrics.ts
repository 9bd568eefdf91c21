import request from 'supertest';

export type Samples = Map<string, number>;

/** GET /api/metrics of an app, parsed into `name{label="value",…}` → value (labels sorted, `app` dropped). */
export async function scrape(baseUrl: string): Promise<Samples> {
  const response = await request(baseUrl).get('/api/metrics').expect(200);
  expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  const samples: Samples = new Map();
  for (const line of response.text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!match) throw new Error(`Unparseable metrics line: ${line}`);
    const [, name, labels = '', value] = match;
    const pairs = [...labels.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)]
      .filter(([, key]) => key !== 'app')
      .map(([, key, val]) => `${key}="${val}"`)
      .sort();
    samples.set(pairs.length ? `${name}{${pairs.join(',')}}` : name, Number(value));
  }
  return samples;
}

/** A sample's value, 0 when the series does not exist yet. */
export function value(samples: Samples, series: string): number {
  return samples.get(series) ?? 0;
}

/** How much each series moved between two scrapes. */
export function moved(before: Samples, after: Samples, series: string): number {
  return value(after, series) - value(before, series);
}
