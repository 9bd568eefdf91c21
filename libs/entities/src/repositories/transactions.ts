import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/**
 * Runs a service's multi-table change in one transaction: the service passes the manager it gets
 * to each repository method (their optional `manager` parameter), so every statement runs in it.
 */
@Injectable()
export class Transactions {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** In the caller's transaction when it has one, else in one of its own. */
  runIn<T>(manager: EntityManager | null, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return manager ? work(manager) : this.run(work);
  }
}
