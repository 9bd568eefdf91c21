import { QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { toProblem } from './to-problem';

describe('toProblem and lost database connections', () => {
  it.each([
    ['an entity manager call', new QueryRunnerProviderAlreadyReleasedError()],
    ['a raw query (manager.query, as the repositories run their SQL)', new QueryRunnerAlreadyReleasedError()],
  ])(
    'a transaction whose connection was cut between two statements (TypeORM released its query runner) is a 503 with Retry-After: %s',
    (_, error) => {
      const problem = toProblem(error);
      expect([problem.status, problem.code, problem.headers['Retry-After']]).toEqual([503, 'service_unavailable', '1']);
    },
  );
});
