// Query strings without URL or URLSearchParams (React Native's URL is incomplete).

import { formDecode } from '@sesame/client-core';

/** The query parameters of a URL (first value of each name), fragment ignored. */
export function queryOf(url: string): Record<string, string> {
  const withoutFragment = url.split('#')[0];
  const question = withoutFragment.indexOf('?');
  const params: Record<string, string> = {};
  if (question < 0) return params;
  for (const pair of withoutFragment.slice(question + 1).split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = formDecode(equals < 0 ? pair : pair.slice(0, equals));
    const value = equals < 0 ? '' : formDecode(pair.slice(equals + 1));
    if (!(name in params)) params[name] = value;
  }
  return params;
}

/** The URL without query and fragment. */
export function withoutQuery(url: string): string {
  return url.split('#')[0].split('?')[0];
}
