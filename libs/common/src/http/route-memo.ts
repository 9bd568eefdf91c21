import { ExecutionContext, Type } from '@nestjs/common';

/** A route's handler, as Nest names it (the metadata of decorators is kept on it). */
export type Handler = ReturnType<ExecutionContext['getHandler']>;

/**
 * What a route's decorators say, worked out once per handler and controller and kept: decorators
 * are fixed when the app starts, and guards ask on every request. Keyed by handler and then class,
 * since a handler may be inherited by several controllers. Guards read route metadata through one.
 */
export class RouteMemo<T> {
  private readonly byHandler = new WeakMap<Handler, Map<Type, T>>();

  constructor(private readonly read: (handler: Handler, classRef: Type) => T) {}

  of(context: ExecutionContext): T {
    const handler = context.getHandler();
    const classRef = context.getClass();
    let byClass = this.byHandler.get(handler);
    if (!byClass) this.byHandler.set(handler, (byClass = new Map()));
    if (!byClass.has(classRef)) byClass.set(classRef, this.read(handler, classRef));
    return byClass.get(classRef) as T;
  }
}
