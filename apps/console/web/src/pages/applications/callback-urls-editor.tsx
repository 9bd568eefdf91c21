import { useFieldArray, useForm } from 'react-hook-form';
import { fieldErrorsOf, sentIndex } from '../../components/field-errors';
import { ProblemMessage } from '../../components/problem-message';
import { type Application, type ApplicationType, useUpdateCallbackUrls } from './application-queries';

/** How each type's redirect_uri is checked against these URLs. */
const RULES: Record<ApplicationType, string> = {
  web: 'Exact match: a login may return only to one of these URLs. With none, any https URL on the organization’s whitelist is accepted.',
  android: 'Exact match, required: a reverse-domain scheme such as com.example.app:/callback, or an https App Link.',
  ios: 'Exact match, required: a reverse-domain scheme such as com.example.app:/callback, or an https universal link.',
  desktop:
    'Loopback only: http://127.0.0.1/… or http://[::1]/…, matched on any port (the app picks a free one). localhost is not accepted.',
};

export function CallbackUrlsEditor({ tenantId, application, readOnly }: { tenantId: string; application: Application; readOnly: boolean }) {
  const form = useForm({ values: { urls: application.callbackUrls.map((url) => ({ url })) } });
  const urls = useFieldArray({ control: form.control, name: 'urls' });
  const save = useUpdateCallbackUrls(tenantId, application.organizationId, application.id);
  const errors = fieldErrorsOf(save.error);

  return (
    <form
      className="form"
      noValidate
      aria-labelledby="callbacks-heading"
      onSubmit={form.handleSubmit((values) => save.mutate(values.urls.map((entry) => entry.url.trim()).filter(Boolean)))}
    >
      <fieldset disabled={readOnly}>
        <h3 id="callbacks-heading">Callback URLs</h3>
        <p className="hint">{RULES[application.type]}</p>
        {urls.fields.length === 0 && <p className="muted">No callback URLs.</p>}
        {urls.fields.map((field, index) => {
          const sent = sentIndex(
            form.getValues('urls').map((entry) => entry.url),
            index,
          );
          const message = sent === null ? undefined : errors.get(`callbackUrls.${sent}`);
          return (
            <div key={field.id} className="row">
              <input
                aria-label={`Callback URL ${index + 1}`}
                aria-invalid={Boolean(message)}
                aria-describedby={`callback-${index}-error`}
                {...form.register(`urls.${index}.url`)}
              />
              {!readOnly && (
                <button
                  type="button"
                  className="button button-small"
                  aria-label={`Remove callback URL ${index + 1}`}
                  onClick={() => urls.remove(index)}
                >
                  Remove
                </button>
              )}
              <p id={`callback-${index}-error`} className="field-error">
                {message}
              </p>
            </div>
          );
        })}
        {errors.get('callbackUrls') && <p className="field-error">{errors.get('callbackUrls')}</p>}
        {errors.size === 0 && <ProblemMessage error={save.error} />}
        {!readOnly && (
          <div className="actions">
            <button type="button" className="button" onClick={() => urls.append({ url: '' })}>
              Add a callback URL
            </button>
            <button type="submit" className="button button-primary" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save callback URLs'}
            </button>
          </div>
        )}
        {save.isSuccess && !form.formState.isDirty && (
          <p className="notice" role="status">
            Callback URLs saved.
          </p>
        )}
      </fieldset>
    </form>
  );
}
