import { PageHeader } from '../../components/page-header';

export function ApiKeysPage({ scope }: { scope: 'tenant' | 'organization' }) {
  return <PageHeader title={scope === 'tenant' ? 'API keys' : 'Organization API keys'} />;
}
