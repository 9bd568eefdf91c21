import { PageHeader } from '../../components/page-header';

export function AuditLogPage() {
  return <PageHeader title="Audit log" />;
}
