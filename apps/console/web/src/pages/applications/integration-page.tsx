import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { components } from '../../api/console-api';
import { useCan, useMembership, useSession } from '../../api/session';
import { CopyButton } from '../../components/copy-button';
import { QueryState } from '../../components/states';
import { type Application, useApplication } from './application-queries';
import { typeLabel } from './application-types';
import { CallbackUrlsEditor } from './callback-urls-editor';
import { ClientSecret } from './client-secret';
import { useSesameEndpoints } from './integration-queries';
import { quickStarts } from './quick-starts';
import { TryIt } from './try-it';

type Endpoints = components['schemas']['SesameEndpointsResponse'];

/** Everything a developer needs to integrate one application: credentials, callbacks, URLs, quick starts, and a real try. */
export function IntegrationPage() {
  const { tenantId } = useMembership();
  const { organizationId, applicationId } = useParams();
  const application = useApplication(tenantId, organizationId!, applicationId!);
  const endpoints = useSesameEndpoints();
  const canEdit = useCan('admin');
  return (
    <QueryState query={application}>
      {(data) => (
        <article aria-labelledby="integration-heading">
          <p className="breadcrumbs">
            <Link to="..">Applications</Link> / {data.name}
          </p>
          <h2 id="integration-heading">
            {data.name} <span className="badge">{typeLabel(data.type)}</span>
          </h2>
          <Credentials tenantId={tenantId} application={data} />
          <section className="card">
            <CallbackUrlsEditor tenantId={tenantId} application={data} readOnly={!canEdit} />
          </section>
          <QueryState query={endpoints}>
            {(urls) => (
              <>
                <EndpointList endpoints={urls} />
                <QuickStarts application={data} endpoints={urls} />
              </>
            )}
          </QueryState>
          <TryItForAdmins tenantId={tenantId} application={data} />
        </article>
      )}
    </QueryState>
  );
}

function Credentials({ tenantId, application }: { tenantId: string; application: Application }) {
  return (
    <section className="card" aria-labelledby="credentials-heading">
      <h3 id="credentials-heading">Endpoints &amp; credentials</h3>
      <dl className="definition">
        <dt>Client id</dt>
        <dd>
          <code data-testid="client-id">{application.clientId}</code>
          <CopyButton value={application.clientId} label="Copy client id" />
        </dd>
        {application.type === 'web' && (
          <>
            <dt>Client secret</dt>
            <dd>
              <ClientSecret tenantId={tenantId} application={application} />
            </dd>
          </>
        )}
      </dl>
      {application.type !== 'web' && <p className="muted">Native apps have no client secret: every login uses PKCE.</p>}
    </section>
  );
}

function EndpointList({ endpoints }: { endpoints: Endpoints }) {
  const rows: [string, string][] = [
    ['Issuer', endpoints.issuer],
    ['Discovery', endpoints.discovery],
    ['JWKS', endpoints.jwks],
    ['Authorize', endpoints.authorize],
    ['Direct authentication', endpoints.authenticateDirect],
    ['Verify (token)', endpoints.verify],
    ['Userinfo', endpoints.userinfo],
  ];
  return (
    <section className="card" aria-labelledby="urls-heading">
      <h3 id="urls-heading">URLs</h3>
      <dl className="definition">
        {rows.map(([label, url]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>
              <code>{url}</code>
              <CopyButton value={url} label={`Copy the ${label} URL`} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function QuickStarts({ application, endpoints }: { application: Application; endpoints: Endpoints }) {
  const starts = quickStarts(application, endpoints);
  const [selected, setSelected] = useState(starts[0].id);
  const current = starts.find((start) => start.id === selected) ?? starts[0];
  return (
    <section className="card" aria-labelledby="quick-start-heading">
      <h3 id="quick-start-heading">Quick start</h3>
      <div role="tablist" aria-label="Quick starts" className="tabs">
        {starts.map((start) => (
          <button
            key={start.id}
            type="button"
            role="tab"
            aria-selected={start.id === current.id}
            className={start.id === current.id ? 'button button-small button-primary' : 'button button-small'}
            onClick={() => setSelected(start.id)}
          >
            {start.title}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={current.title}>
        <pre className="snippet" tabIndex={0}>
          <code>{current.code}</code>
        </pre>
        <CopyButton value={current.code} label={`Copy the ${current.title} quick start`} />
      </div>
    </section>
  );
}

function TryItForAdmins({ tenantId, application }: { tenantId: string; application: Application }) {
  const canTry = useCan('admin');
  const email = useSession().data?.email;
  if (!canTry || !email) return null;
  return <TryIt tenantId={tenantId} application={application} email={email} />;
}
