import type { ApplicationType } from './application-queries';

/** What each type of application needs, in one line. */
export const APPLICATION_TYPES: { type: ApplicationType; label: string; needs: string }[] = [
  {
    type: 'web',
    label: 'Web',
    needs:
      'A server-side web app: gets a client secret; users return to an origin on the organization’s whitelist, or to its exact callback URLs.',
  },
  {
    type: 'android',
    label: 'Android',
    needs: 'No secret (PKCE instead); an exact callback URL such as com.example.app:/callback or an https App Link.',
  },
  {
    type: 'ios',
    label: 'iOS',
    needs: 'No secret (PKCE instead); an exact callback URL such as com.example.app:/callback or an https universal link.',
  },
  {
    type: 'desktop',
    label: 'Desktop',
    needs: 'No secret (PKCE instead); a loopback callback such as http://127.0.0.1/callback, accepted on any port.',
  },
];

export function typeLabel(type: ApplicationType): string {
  return APPLICATION_TYPES.find((candidate) => candidate.type === type)?.label ?? type;
}
