import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { type Role, roleAllows, useCan, useMembership } from '../../api/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ShownOnce } from '../../components/shown-once';
import { DateTime } from '../../components/date-time';
import { fieldErrorsOf } from '../../components/field-errors';
import { PagedList } from '../../components/paged-list';
import { PageHeader } from '../../components/page-header';
import { ProblemMessage } from '../../components/problem-message';
import { EmptyState } from '../../components/states';
import { type ApiKey, type CreatedApiKey, type KeyOwner, useApiKeys, useCreateApiKey, useRevokeApiKey } from './api-key-queries';

/** What each role lets a key do, as the create form explains it. */
const ROLE_WORDS: Record<Role, string> = {
  viewer: 'Viewer: reads everything but secrets, changes nothing',
  admin: 'Admin: manages organizations, users, applications and keys',
  owner: 'Owner: everything, including members',
};

/** The roles a member may give a new key: none above their own, and organization keys are at most admins. */
function grantableRoles(memberRole: Role, scope: KeyOwner['scope']): Role[] {
  const roles: Role[] = scope === 'tenant' ? ['viewer', 'admin', 'owner'] : ['viewer', 'admin'];
  return roles.filter((role) => roleAllows(memberRole, role));
}

const DESCRIPTIONS = {
  tenant: 'Tenant keys call the management API for the whole tenant: every organization, and its members.',
  organization: 'Organization keys call the management API for this organization only: its users, applications and login activity.',
};

/** The tenant's or an organization's API keys: list, create (the key is shown once), revoke. */
export function ApiKeysPage({ scope }: { scope: 'tenant' | 'organization' }) {
  const { tenantId, role: memberRole } = useMembership();
  const organizationId = useParams().organizationId;
  const owner: KeyOwner = scope === 'organization' && organizationId ? { scope, organizationId } : { scope: 'tenant' };
  const canEdit = useCan('admin');
  const keys = useApiKeys(tenantId, owner);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <>
      {scope === 'tenant' ? (
        <PageHeader title="API keys" description={DESCRIPTIONS.tenant} />
      ) : (
        <>
          <h2>API keys</h2>
          <p className="muted">{DESCRIPTIONS.organization}</p>
        </>
      )}
      {created && <NewKeyShownOnce created={created} onDismiss={() => setCreated(null)} />}
      {canEdit && !created && (
        <CreateKeyForm tenantId={tenantId} owner={owner} roles={grantableRoles(memberRole, owner.scope)} onCreated={setCreated} />
      )}
      <PagedList
        query={keys}
        empty={
          <EmptyState title="No API keys yet">
            {canEdit && <p>Create one above for a script or a server that calls the management API.</p>}
          </EmptyState>
        }
      >
        {(items) => (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Role</th>
                <th scope="col">Created by</th>
                <th scope="col">Last used</th>
                <th scope="col">Created</th>
                <th scope="col">Status</th>
                {canEdit && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {items.map((key) => (
                <tr key={key.id}>
                  <td>{key.name}</td>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>
                    <span className="badge">{key.role}</span>
                  </td>
                  <td>
                    {key.createdBy ? (
                      `${key.createdBy.name}${key.createdBy.type === 'api_key' ? ' (API key)' : ''}`
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td>
                    <DateTime value={key.lastUsedAt} />
                  </td>
                  <td>
                    <DateTime value={key.createdAt} />
                  </td>
                  <td>
                    {key.revokedAt ? (
                      <>
                        <span className="badge badge-danger">Revoked</span> <DateTime value={key.revokedAt} />
                      </>
                    ) : (
                      <span className="badge badge-ok">Active</span>
                    )}
                  </td>
                  {canEdit && (
                    <td>
                      {!key.revokedAt && roleAllows(memberRole, key.role) && (
                        <button
                          type="button"
                          className="button button-small button-danger"
                          aria-label={`Revoke ${key.name}`}
                          onClick={() => setRevoking(key)}
                        >
                          Revoke
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </PagedList>
      {revoking && <RevokeKey tenantId={tenantId} owner={owner} apiKey={revoking} onClose={() => setRevoking(null)} />}
    </>
  );
}

interface CreateKeyFormProps {
  tenantId: string;
  owner: KeyOwner;
  /** The roles the member may give, lowest first. */
  roles: Role[];
  onCreated: (created: CreatedApiKey) => void;
}

function CreateKeyForm({ tenantId, owner, roles, onCreated }: CreateKeyFormProps) {
  const create = useCreateApiKey(tenantId, owner);
  // Admin unless the member may give less only.
  const defaultRole = roles.includes('admin') ? 'admin' : roles[roles.length - 1];
  const form = useForm<{ name: string; role: Role }>({ defaultValues: { name: '', role: defaultRole } });
  const serverErrors = fieldErrorsOf(create.error);
  const nameError = form.formState.errors.name ? 'Give the key a name, such as what will use it.' : serverErrors.get('name');
  return (
    <form
      className="card form"
      noValidate
      aria-labelledby="new-key-heading"
      onSubmit={form.handleSubmit((values) =>
        create.mutate(
          { name: values.name.trim(), role: values.role },
          {
            onSuccess: (created) => {
              // The key lives only in the page's state: the mutation forgets it at once.
              create.reset();
              form.reset();
              onCreated(created);
            },
          },
        ),
      )}
    >
      <h3 id="new-key-heading">New API key</h3>
      <div className="field">
        <label htmlFor="api-key-name">Name</label>
        <input
          id="api-key-name"
          autoComplete="off"
          aria-invalid={Boolean(nameError)}
          aria-describedby="api-key-name-error"
          {...form.register('name', { validate: (value) => value.trim() !== '' })}
        />
        <p id="api-key-name-error" className="field-error">
          {nameError}
        </p>
      </div>
      <fieldset className="field">
        <legend>Role</legend>
        {roles.map((role) => (
          <div key={role} className="field checkbox">
            <input id={`key-role-${role}`} type="radio" value={role} {...form.register('role')} />
            <label htmlFor={`key-role-${role}`}>{ROLE_WORDS[role]}</label>
          </div>
        ))}
      </fieldset>
      {serverErrors.size === 0 && <ProblemMessage error={create.error} />}
      <button type="submit" className="button button-primary" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}

/** The new key, shown this once: it is nowhere else (not stored, not logged), and gone when dismissed. */
function NewKeyShownOnce({ created, onDismiss }: { created: CreatedApiKey; onDismiss: () => void }) {
  return (
    <section className="card" aria-labelledby="created-key-heading">
      <h3 id="created-key-heading">Key {created.name} created</h3>
      <p role="status">
        <strong>Copy this key now: it will not be shown again.</strong> Store it where its program reads secrets; if it is lost, create
        another and revoke this one.
      </p>
      <ShownOnce
        value={created.key}
        copyLabel={`Copy the key ${created.name}`}
        storedLabel="I have stored the key"
        testId="new-api-key"
        onDismiss={onDismiss}
      />
    </section>
  );
}

function RevokeKey({ tenantId, owner, apiKey, onClose }: { tenantId: string; owner: KeyOwner; apiKey: ApiKey; onClose: () => void }) {
  const revoke = useRevokeApiKey(tenantId, owner);
  return (
    <ConfirmDialog
      title={`Revoke ${apiKey.name}?`}
      confirmLabel="Revoke key"
      danger
      pending={revoke.isPending}
      error={revoke.error}
      onClose={onClose}
      onConfirm={() => revoke.mutate(apiKey.id, { onSuccess: onClose })}
    >
      <p>
        Calls with the key <code>{apiKey.prefix}…</code> are refused from now on. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
