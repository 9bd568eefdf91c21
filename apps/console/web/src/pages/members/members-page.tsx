import { PageHeader } from '../../components/page-header';

export function MembersPage() {
  return <PageHeader title="Members" />;
}
