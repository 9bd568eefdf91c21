import { PageHeader } from '../../components/page-header';

export function LoginActivityPage() {
  return <PageHeader title="Login activity" />;
}
