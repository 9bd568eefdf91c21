import { useFieldArray, useForm } from 'react-hook-form';
import { fieldErrorsOf, sentIndex } from '../../components/field-errors';
import { ProblemMessage } from '../../components/problem-message';
import type { Organization, OrganizationInput } from './organization-queries';

interface FormValues {
  name: string;
  domains: { origin: string }[];
  autologin: boolean;
  linkTtlMinutes: number;
  passkeys: PasskeyPolicy;
}

type PasskeyPolicy = Organization['passkeys'];

/** The hosted login page's passkey policies, in the words the page uses. */
const PASSKEY_POLICIES: { value: PasskeyPolicy; label: string }[] = [
  { value: 'offered', label: 'Offered: sign in with a passkey, and one is offered after an e-mailed login (skippable)' },
  { value: 'required', label: 'Required: users without a passkey are asked to create one (e-mailed logins keep working)' },
  { value: 'off', label: 'Off: no passkeys on the hosted login page' },
];

const DEFAULTS: FormValues = { name: '', domains: [{ origin: '' }], autologin: false, linkTtlMinutes: 15, passkeys: 'offered' };

function toForm(organization: Organization): FormValues {
  return {
    name: organization.name,
    domains: organization.whitelistDomains.map((origin) => ({ origin })),
    autologin: organization.autologin,
    linkTtlMinutes: Math.round(organization.linkTtlSeconds / 60),
    passkeys: organization.passkeys,
  };
}

function toInput(values: FormValues): OrganizationInput {
  return {
    name: values.name.trim(),
    whitelistDomains: values.domains.map((domain) => domain.origin.trim()).filter(Boolean),
    autologin: values.autologin,
    linkTtlSeconds: Math.round(Number(values.linkTtlMinutes) * 60),
    passkeys: values.passkeys,
  };
}

export interface OrganizationFormProps {
  organization?: Organization;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  readOnly?: boolean;
  onSubmit: (input: OrganizationInput) => void;
}

/**
 * Name, whitelist domains, autologin, link lifetime and passkeys. The API validates; its message for each
 * whitelist entry shows under that entry (the API names them `whitelistDomains.<index>`).
 */
export function OrganizationForm({ organization, submitLabel, pending, error, readOnly, onSubmit }: OrganizationFormProps) {
  const form = useForm<FormValues>({ defaultValues: organization ? toForm(organization) : DEFAULTS });
  const domains = useFieldArray({ control: form.control, name: 'domains' });
  const serverErrors = fieldErrorsOf(error);
  const fieldError = (field: string) => serverErrors.get(field);

  return (
    <form className="card form" noValidate onSubmit={form.handleSubmit((values) => onSubmit(toInput(values)))}>
      <fieldset disabled={readOnly}>
        <div className="field">
          <label htmlFor="organization-name">Name</label>
          <input
            id="organization-name"
            aria-invalid={Boolean(fieldError('name'))}
            aria-describedby="organization-name-error"
            {...form.register('name', { required: true })}
          />
          <p id="organization-name-error" className="field-error">
            {form.formState.errors.name ? 'Give the organization a name.' : fieldError('name')}
          </p>
        </div>

        <fieldset className="field">
          <legend>Whitelist domains</legend>
          <p className="hint">
            Origins your web applications may send users back to, such as <code>https://app.example.com</code>: https only (http for
            loopback hosts), no path.
          </p>
          {domains.fields.map((domain, index) => {
            const sent = sentIndex(
              form.getValues('domains').map((domain) => domain.origin),
              index,
            );
            const message = sent === null ? undefined : fieldError(`whitelistDomains.${sent}`);
            return (
              <div key={domain.id} className="row">
                <input
                  aria-label={`Whitelist domain ${index + 1}`}
                  placeholder="https://app.example.com"
                  aria-invalid={Boolean(message)}
                  aria-describedby={`domain-${index}-error`}
                  {...form.register(`domains.${index}.origin`)}
                />
                {!readOnly && (
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => domains.remove(index)}
                    aria-label={`Remove whitelist domain ${index + 1}`}
                  >
                    Remove
                  </button>
                )}
                <p id={`domain-${index}-error`} className="field-error">
                  {message}
                </p>
              </div>
            );
          })}
          {!readOnly && (
            <button type="button" className="button button-small" onClick={() => domains.append({ origin: '' })}>
              Add a domain
            </button>
          )}
          {fieldError('whitelistDomains') && <p className="field-error">{fieldError('whitelistDomains')}</p>}
        </fieldset>

        <div className="field checkbox">
          <input id="organization-autologin" type="checkbox" {...form.register('autologin')} />
          <label htmlFor="organization-autologin">
            Autologin: one sign-in signs the user in to every web application of the organization
          </label>
        </div>

        <div className="field">
          <label htmlFor="organization-ttl">Login link lifetime (minutes)</label>
          <input
            id="organization-ttl"
            type="number"
            min={1}
            max={1440}
            aria-describedby="organization-ttl-error"
            {...form.register('linkTtlMinutes', { valueAsNumber: true })}
          />
          <p id="organization-ttl-error" className="field-error">
            {fieldError('linkTtlSeconds') && 'Between 1 minute and 24 hours.'}
          </p>
        </div>

        <div className="field">
          <label htmlFor="organization-passkeys">Passkeys</label>
          <select id="organization-passkeys" aria-describedby="organization-passkeys-error" {...form.register('passkeys')}>
            {PASSKEY_POLICIES.map((policy) => (
              <option key={policy.value} value={policy.value}>
                {policy.label}
              </option>
            ))}
          </select>
          <p id="organization-passkeys-error" className="field-error">
            {fieldError('passkeys')}
          </p>
        </div>

        {serverErrors.size === 0 && <ProblemMessage error={error} />}
        {!readOnly && (
          <button type="submit" className="button button-primary" disabled={pending}>
            {pending ? 'Saving…' : submitLabel}
          </button>
        )}
      </fieldset>
    </form>
  );
}
