import { PageHeader } from '../../components/page-header';

export function UsersPage() {
  return <PageHeader title="Users" />;
}
