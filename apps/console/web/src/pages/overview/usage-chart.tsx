import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { UsageHistory } from './overview-queries';

const SERIES = [
  { key: 'apiRequests', name: 'API requests', color: '#2f7ed8' },
  { key: 'logins', name: 'Logins', color: '#1a9850' },
  { key: 'mailsSent', name: 'Mails sent', color: '#e08a00' },
  { key: 'mailsFailed', name: 'Mails failed', color: '#d73027' },
] as const;

/** Requests, logins and mails per hour (24 hours) or per day (30 days). Loaded on its own: the chart library is the console's largest. */
export default function UsageChart({ history }: { history: UsageHistory }) {
  const label = (start: string) => {
    const date = new Date(start);
    return history.granularity === 'day'
      ? date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })
      : date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  };
  const points = history.points.map((point) => ({ ...point, label: label(point.start) }));
  return (
    <div
      className="chart"
      role="img"
      aria-label={`Requests, logins and mails per ${history.granularity} over ${history.range === '24h' ? 'the last 24 hours' : 'the last 30 days'}`}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={points}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="label" stroke="var(--muted)" fontSize={12} />
          <YAxis allowDecimals={false} stroke="var(--muted)" fontSize={12} />
          <Tooltip contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', color: 'var(--text)' }} />
          <Legend />
          {SERIES.map((series) => (
            <Bar
              key={series.key}
              dataKey={series.key}
              name={series.name}
              fill={series.color}
              stackId={series.key === 'apiRequests' ? 'requests' : 'auth'}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
