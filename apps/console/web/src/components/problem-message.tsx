import { describeError } from '../api/problem';

/** The API's answer to a failed action, in words, next to the action (announced to screen readers). */
export function ProblemMessage({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="problem" role="alert">
      {describeError(error)}
    </p>
  );
}
