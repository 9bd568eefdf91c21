/**
 * The report of a hot-path run: one Markdown table of every measurement (scenario × connections
 * × server × platform, with Sesame's ratios to the peer and the floor), and the targets of the
 * benchmark issue with PASS/FAIL per platform.
 */
import { CACHED_USERINFO_TOKENS, HotScenario, Measurement, Platform } from './hot-paths';
import { MailResult } from './mail';

export interface Verdict {
  target: string;
  platform: Platform;
  pass: boolean;
  detail: string;
}

const SCENARIO_TITLES: Record<HotScenario, string> = {
  userinfo: 'GET /v1/userinfo',
  'userinfo-cached': `GET /v1/userinfo (${CACHED_USERINFO_TOKENS} tokens, cached)`,
  verify: 'POST /v1/verify',
  organization: 'GET /v2/organization/{id}',
  'login-activity': 'GET /v2/organization/{id}/login_attempt',
  'authenticate-direct': 'POST /v1/authenticate_direct',
};

const SERVER_ORDER = { empty: 0, floor: 1, peer: 2, sesame: 3 } as const;

const SERVER_NAMES: Record<Measurement['server'], (platform: Platform | null) => string> = {
  sesame: (platform) => `**sesame (${platform})**`,
  peer: () => 'peer (oidc-provider)',
  floor: () => 'floor (node:http)',
  empty: (platform) => `empty Nest route (${platform})`,
};

const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const ratio = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '' : value.toFixed(2));

function find(
  measurements: Measurement[],
  scenario: HotScenario,
  server: Measurement['server'],
  connections: number,
  platform: Platform | null = null,
): Measurement | undefined {
  return measurements.find(
    (m) => m.scenario === scenario && m.server === server && m.connections === connections && m.platform === platform,
  );
}

function failuresOf(m: Measurement): number {
  return m.non2xx + m.errors + m.timeouts;
}

/** One measurement per scenario, server, platform and connection count: the mean over the rounds (failures summed). */
export function averageRounds(measurements: Measurement[]): Measurement[] {
  const groups = new Map<string, Measurement[]>();
  for (const m of measurements) {
    const key = `${m.scenario}|${m.server}|${m.platform}|${m.connections}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups.values()].map((group) => {
    if (group.length === 1) return group[0];
    const mean = (pick: (m: Measurement) => number) => group.reduce((sum, m) => sum + pick(m), 0) / group.length;
    const sum = (pick: (m: Measurement) => number) => group.reduce((total, m) => total + pick(m), 0);
    return {
      ...group[0],
      round: 0,
      seconds: sum((m) => m.seconds),
      requests: sum((m) => m.requests),
      requestsPerSecond: mean((m) => m.requestsPerSecond),
      latencyMs: {
        mean: mean((m) => m.latencyMs.mean),
        p50: mean((m) => m.latencyMs.p50),
        p90: mean((m) => m.latencyMs.p90),
        p99: mean((m) => m.latencyMs.p99),
        max: Math.max(...group.map((m) => m.latencyMs.max)),
      },
      non2xx: sum((m) => m.non2xx),
      errors: sum((m) => m.errors),
      timeouts: sum((m) => m.timeouts),
      exhausted: group.some((m) => m.exhausted),
      failures: group.flatMap((m) => m.failures).slice(0, 3),
    };
  });
}

export function measurementTable(measurements: Measurement[]): string {
  const rows = [
    line(['scenario', 'c', 'server', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx/errors', 'sesame/peer', 'sesame/floor', 'sesame/empty route']),
    line(['---', '---:', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  const scenarios = [...new Set(measurements.map((m) => m.scenario))];
  for (const scenario of scenarios) {
    const connections = [...new Set(measurements.filter((m) => m.scenario === scenario).map((m) => m.connections))];
    for (const c of connections) {
      const group = measurements
        .filter((m) => m.scenario === scenario && m.connections === c)
        .sort((a, b) => SERVER_ORDER[a.server] - SERVER_ORDER[b.server] || String(a.platform).localeCompare(String(b.platform)));
      const peer = find(measurements, scenario, 'peer', c);
      const floor = find(measurements, scenario, 'floor', c);
      for (const m of group) {
        const name = SERVER_NAMES[m.server](m.platform);
        const isSesame = m.server === 'sesame';
        const empty = isSesame ? find(measurements, scenario, 'empty', c, m.platform) : undefined;
        rows.push(
          line([
            SCENARIO_TITLES[scenario],
            c,
            name,
            fixed(m.requestsPerSecond) + (m.exhausted ? '*' : ''),
            fixed(m.latencyMs.p50, 1),
            fixed(m.latencyMs.p99, 1),
            failuresOf(m),
            isSesame && peer ? ratio(m.requestsPerSecond / peer.requestsPerSecond) : '',
            isSesame && floor ? ratio(m.requestsPerSecond / floor.requestsPerSecond) : '',
            empty ? ratio(m.requestsPerSecond / empty.requestsPerSecond) : '',
          ]),
        );
      }
    }
  }
  return rows.join('\n');
}

export function mailTable(mail: MailResult): string {
  return [
    line([
      'scenario',
      'requests',
      'rate',
      'accepted',
      'delivered',
      'lost',
      'delivery p50',
      'delivery p99',
      'delivery max',
      'HTTP p50',
      'HTTP p99',
      'queued → sent p50 / p99',
      'of which sink greeting p50',
    ]),
    line(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    line([
      'POST /v1/authenticate_direct → mail received (express)',
      mail.requests,
      `${fixed(mail.rate, 1)}/s`,
      mail.accepted,
      mail.delivered,
      mail.lost,
      `${fixed(mail.deliveryMs.p50, 1)} ms`,
      `${fixed(mail.deliveryMs.p99, 1)} ms`,
      `${fixed(mail.deliveryMs.max, 1)} ms`,
      `${fixed(mail.httpMs.p50, 1)} ms`,
      `${fixed(mail.httpMs.p99, 1)} ms`,
      `${fixed(mail.stagesMs.sent.p50, 1)} / ${fixed(mail.stagesMs.sent.p99, 1)} ms`,
      `${fixed(mail.sinkGreetingMs.p50, 1)} ms`,
    ]),
  ].join('\n');
}

/** The targets, per platform. */
export function verdicts(measurements: Measurement[], mail: MailResult | null, platforms: Platform[], connections: number[]): Verdict[] {
  const out: Verdict[] = [];
  const highest = Math.max(...connections);
  const throughput = (scenario: HotScenario, against: 'peer' | 'floor' | 'empty', minimum: number, on = platforms) => {
    for (const platform of platforms.filter((p) => on.includes(p))) {
      const parts: string[] = [];
      let pass = true;
      let measured = false;
      for (const c of connections) {
        const sesame = find(measurements, scenario, 'sesame', c, platform);
        const other = find(measurements, scenario, against, c, against === 'empty' ? platform : null);
        if (!sesame || !other) continue;
        measured = true;
        const value = sesame.requestsPerSecond / other.requestsPerSecond;
        pass &&= value >= minimum;
        parts.push(`c=${c}: ${value.toFixed(2)}`);
      }
      if (measured)
        out.push({
          target: `${scenario}: ≥ ${minimum}× the ${against === 'empty' ? 'empty Nest route' : against}'s throughput`,
          platform,
          pass,
          detail: parts.join(', '),
        });
    }
  };
  const p99 = (scenario: HotScenario, limitMs: number) => {
    for (const platform of platforms) {
      const sesame = find(measurements, scenario, 'sesame', highest, platform);
      if (sesame)
        out.push({
          target: `${scenario}: p99 < ${limitMs} ms at c=${highest}`,
          platform,
          pass: sesame.latencyMs.p99 < limitMs,
          detail: `${sesame.latencyMs.p99} ms`,
        });
    }
  };
  throughput('userinfo', 'peer', 1.5);
  throughput('userinfo', 'floor', 0.6);
  p99('userinfo', 50);
  throughput('verify', 'peer', 1.5);
  p99('verify', 50);
  throughput('organization', 'floor', 0.8);
  p99('organization', 30);
  // Express: the management read within 15 % of what an empty Nest + Express route serves.
  throughput('organization', 'empty', 0.85, ['express']);
  throughput('login-activity', 'floor', 0.6);
  p99('login-activity', 100);
  throughput('authenticate-direct', 'floor', 0.6);
  p99('authenticate-direct', 100);
  if (mail) {
    out.push({
      target: 'mail: request → delivered p50 < 100 ms',
      platform: 'express',
      pass: mail.deliveryMs.p50 < 100,
      detail: `${fixed(mail.deliveryMs.p50, 1)} ms`,
    });
    out.push({
      target: 'mail: request → delivered p99 < 500 ms',
      platform: 'express',
      pass: mail.deliveryMs.p99 < 500,
      detail: `${fixed(mail.deliveryMs.p99, 1)} ms`,
    });
    out.push({
      target: 'mail: every accepted request delivered, no refusals',
      platform: 'express',
      pass: mail.lost === 0 && mail.accepted === mail.requests,
      detail: `${mail.delivered}/${mail.requests} delivered, statuses ${JSON.stringify(mail.statusCodes)}`,
    });
  }
  for (const platform of platforms) {
    const relevant = measurements.filter((m) => m.platform === platform || m.platform === null);
    if (relevant.length === 0) continue;
    const failed = relevant.filter((m) => failuresOf(m) > 0);
    out.push({
      target: 'no errors or non-2xx answers in any run (Sesame, peer, floor)',
      platform,
      pass: failed.length === 0,
      detail:
        failed.length === 0
          ? `${relevant.length} runs clean`
          : failed.map((m) => `${m.scenario} ${m.server} c=${m.connections}: ${failuresOf(m)}`).join('; '),
    });
  }
  return out;
}

export function verdictTable(list: Verdict[], platforms: Platform[]): string {
  const targets = [...new Set(list.map((v) => v.target))];
  const rows = [line(['target', ...platforms]), line(['---', ...platforms.map(() => '---')])];
  for (const target of targets) {
    rows.push(
      line([
        target,
        ...platforms.map((platform) => {
          const verdict = list.find((v) => v.target === target && v.platform === platform);
          return verdict ? `${verdict.pass ? 'PASS' : '**FAIL**'} (${verdict.detail})` : '–';
        }),
      ]),
    );
  }
  return rows.join('\n');
}
