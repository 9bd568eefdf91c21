import type { components } from '../../api/console-api';
import { PageHeader } from '../../components/page-header';

type SignInStarted = components['schemas']['SignInResponse'];

/** After the form: the address, and the sentence the e-mail and the link's page show too. */
export function CheckInbox({ started, onRestart }: { started: SignInStarted; onRestart: () => void }) {
  return (
    <main id="main" className="narrow">
      <PageHeader title="Check your inbox" />
      <div className="card">
        <p>{started.message}</p>
        <p>The e-mail and the page its link opens show this sentence. Go on only if they match:</p>
        <p className="sentence" data-testid="sentence">
          {started.sentence}
        </p>
        <button type="button" className="button" onClick={onRestart}>
          Use another address
        </button>
      </div>
    </main>
  );
}
