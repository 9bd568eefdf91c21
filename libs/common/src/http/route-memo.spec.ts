import { ExecutionContext } from '@nestjs/common';
import { RouteMemo } from './route-memo';

class BaseController {
  read() {}
  write() {}
}
class DerivedController extends BaseController {}

const route = (controller: typeof BaseController, handler: 'read' | 'write') =>
  ({ getHandler: () => BaseController.prototype[handler], getClass: () => controller }) as unknown as ExecutionContext;

describe('RouteMemo', () => {
  it('works a route out once, and keeps an answer per handler and controller: an inherited handler lends its answer to no other', () => {
    const read = jest.fn(
      (handler: unknown, controller: unknown) => `${(controller as { name: string }).name}.${(handler as { name: string }).name}`,
    );
    const memo = new RouteMemo(read);

    expect(memo.of(route(DerivedController, 'read'))).toBe('DerivedController.read');
    expect(memo.of(route(BaseController, 'read'))).toBe('BaseController.read');
    expect(memo.of(route(BaseController, 'write'))).toBe('BaseController.write');
    expect(memo.of(route(DerivedController, 'read'))).toBe('DerivedController.read');
    expect(memo.of(route(BaseController, 'read'))).toBe('BaseController.read');
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('keeps an answer that is null or false', () => {
    const read = jest.fn(() => null);
    const memo = new RouteMemo(read);
    memo.of(route(BaseController, 'read'));
    memo.of(route(BaseController, 'read'));
    expect(read).toHaveBeenCalledTimes(1);
  });
});
