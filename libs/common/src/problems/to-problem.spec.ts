import { QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { toProblem } from './to-problem';

describe('toProblem and lost database connections', () => {
  it('a transaction whose connection was cut between two statements (TypeORM released its query runner) is a 503 with Retry-After', () => {
    const problem = toProblem(new QueryRunnerProviderAlreadyReleasedError());
    expect([problem.status, problem.code, problem.headers['Retry-After']]).toEqual([503, 'service_unavailable', '1']);
  });
});
