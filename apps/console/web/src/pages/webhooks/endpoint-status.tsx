import type { WebhookDelivery, WebhookEndpoint } from './webhook-queries';

/** Enabled, disabled by the tenant, or disabled by Sesame because every try failed for days. */
export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.enabled) return <span className="badge badge-ok">Enabled</span>;
  if (endpoint.disabledReason === 'failing') return <span className="badge badge-danger">Disabled: failing</span>;
  return <span className="badge">Disabled</span>;
}

const DELIVERY_STATUS: Record<WebhookDelivery['status'], { label: string; className: string }> = {
  pending: { label: 'Pending', className: 'badge badge-warn' },
  succeeded: { label: 'Succeeded', className: 'badge badge-ok' },
  failed: { label: 'Failed', className: 'badge badge-danger' },
};

export function DeliveryStatus({ status }: { status: WebhookDelivery['status'] }) {
  const { label, className } = DELIVERY_STATUS[status];
  return <span className={className}>{label}</span>;
}
