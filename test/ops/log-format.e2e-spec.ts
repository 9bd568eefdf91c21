import { appEnv, DockerCommandProcess } from './support/app-process';
import { startCommand } from './support/dockerfile';
import { LINE_WAIT_MS } from './support/lines';

/** Starts management-api as its container does, with these logging variables, until it listens; returns its output. */
async function startupLines(env: Record<string, string>, listening: RegExp): Promise<string[]> {
  const { env: processEnv } = await appEnv('management-api', env);
  const app = new DockerCommandProcess(startCommand('management-api'), processEnv);
  try {
    await app.output.waitFor((line) => listening.test(line), LINE_WAIT_MS, 'the listening line');
    return [...app.output.lines];
  } finally {
    app.kill('SIGTERM');
    await app.exited;
  }
}

describe('log format', () => {
  it('LOG_FORMAT=pretty prints readable lines (time, app, level, context, message) and no route mapping at info', async () => {
    const lines = await startupLines({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' }, /management-api INFO {2}\[Main\] Listening on/);
    expect(lines.find((line) => line.includes('Listening on'))).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} management-api INFO {2}\[Main\] Listening on http:\/\/127\.0\.0\.1:\d+$/,
    );
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
    expect(lines.filter((line) => /Mapped \{|RoutesResolver|RouterExplorer/.test(line))).toEqual([]);
  }, 60_000);

  it('JSON by default, with the route-mapping lines at debug', async () => {
    const lines = await startupLines({ LOG_FORMAT: '', LOG_LEVEL: 'debug' }, /"msg":"Listening on/);
    const entries = lines.map((line) => JSON.parse(line) as { level: string; context?: string; msg: string });
    const mappings = entries.filter((entry) => entry.context === 'RouterExplorer' || entry.context === 'RoutesResolver');
    expect(mappings.length).toBeGreaterThan(10);
    expect(new Set(mappings.map((entry) => entry.level))).toEqual(new Set(['debug']));
  }, 60_000);
});
