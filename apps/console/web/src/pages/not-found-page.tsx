import { Link } from 'react-router';
import { PageHeader } from '../components/page-header';

export function NotFoundPage() {
  return (
    <main id="main" className="narrow">
      <PageHeader title="Page not found" />
      <p>
        There is no such page in the console. <Link to="/">Go to the start</Link>.
      </p>
    </main>
  );
}
