import { redactHeaders, redactUrl, serializeRequest, serializeResponse } from './redact';

describe('redactUrl', () => {
  it.each([
    ['/api/v1/login_link?token=abc', '/api/v1/login_link?[Redacted]'],
    ['/api/v1/login_link/?token=abc&x=1', '/api/v1/login_link/?[Redacted]'],
    ['/api/v1/autologin?token=abc', '/api/v1/autologin?[Redacted]'],
    ['https://id.example.com/api/v1/autologin?token=abc#frag', 'https://id.example.com/api/v1/autologin?[Redacted]#[Redacted]'],
    ['https://app.example.com/cb?code=c0de&state=s', 'https://app.example.com/cb?code=[Redacted]&state=s'],
    [
      'https://app.example.com/cb?state=s&code=c0de&autologin_continue=https%3A%2F%2Fx%2Fapi%2Fv1%2Fautologin%3Ftoken%3Dt',
      'https://app.example.com/cb?state=s&code=[Redacted]&autologin_continue=[Redacted]',
    ],
    [
      '/api/v1/verify?client_secret=s&code_verifier=v&Token=t&c%6Fde=x',
      '/api/v1/verify?client_secret=[Redacted]&code_verifier=[Redacted]&Token=[Redacted]&c%6Fde=[Redacted]',
    ],
    [
      '/api/v1/authorize?client_id=abc&redirect_uri=https%3A%2F%2Fa&state=x',
      '/api/v1/authorize?client_id=abc&redirect_uri=https%3A%2F%2Fa&state=x',
    ],
    [
      '/api/v1/x?access_token=a&id_token=b&refresh_token=c&csrf=d&password=e',
      '/api/v1/x?access_token=[Redacted]&id_token=[Redacted]&refresh_token=[Redacted]&csrf=[Redacted]&password=[Redacted]',
    ],
    ['/api/v2/organization', '/api/v2/organization'],
    ['/api/v2/organization?cursor=abc', '/api/v2/organization?cursor=abc'],
    ['/cb#access_token=x', '/cb#[Redacted]'],
    ['/cb?token', '/cb?token=[Redacted]'],
    ['/cb?%E0%A4%A=x', '/cb?%E0%A4%A=x'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('redactHeaders', () => {
  it('replaces credentials and cleans URLs, keeps the rest', () => {
    expect(
      redactHeaders({
        authorization: 'Basic Y2xpZW50OnNlY3JldA==',
        Cookie: 'sesame_csrf=abc',
        'proxy-authorization': 'x',
        'set-cookie': ['a=b', 'c=d'],
        location: 'https://app/cb?code=123&state=s',
        referer: 'https://id/api/v1/login_link?token=t',
        'user-agent': 'curl',
      }),
    ).toEqual({
      authorization: '[Redacted]',
      Cookie: '[Redacted]',
      'proxy-authorization': '[Redacted]',
      'set-cookie': '[Redacted]',
      location: 'https://app/cb?code=[Redacted]&state=s',
      referer: 'https://id/api/v1/login_link?[Redacted]',
      'user-agent': 'curl',
    });
  });
});

describe('serializers', () => {
  it('a request keeps method, cleaned URL and headers, the peer; never the body, query or params', () => {
    const serialized = serializeRequest({
      method: 'POST',
      url: '/api/v1/login_link?token=t',
      headers: { cookie: 'c' },
      remoteAddress: '127.0.0.1',
      remotePort: 1234,
      ...({ body: { token: 't' }, query: { token: 't' }, params: { id: 'x' }, raw: {} } as object),
    });
    expect(serialized).toEqual({
      method: 'POST',
      url: '/api/v1/login_link?[Redacted]',
      headers: { cookie: '[Redacted]' },
      remoteAddress: '127.0.0.1',
      remotePort: 1234,
    });
  });

  it('a response keeps its status and cleaned headers', () => {
    expect(serializeResponse({ statusCode: 303, headers: { location: '/cb?code=x', 'set-cookie': 'a=b', 'x-request-id': 'r' } })).toEqual({
      statusCode: 303,
      headers: { location: '/cb?code=[Redacted]', 'set-cookie': '[Redacted]', 'x-request-id': 'r' },
    });
  });
});
