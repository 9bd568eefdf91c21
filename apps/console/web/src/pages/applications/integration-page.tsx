import { PageHeader } from '../../components/page-header';

export function IntegrationPage() {
  return <PageHeader title="Integration" />;
}
