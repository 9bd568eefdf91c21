import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Plan, PLANS } from '@sesame/common';
import { TIMESTAMP } from './columns';

@Entity('tenant')
// There is at most one system tenant: the one the console signs people in with.
@Index('tenant_system', ['system'], { unique: true, where: 'system' })
export class Tenant {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'enum', enum: PLANS, enumName: 'tenant_plan' })
  plan: Plan;

  /** The console's own tenant (see SystemTenantService): hidden from the tenant list and out of every key's reach. */
  @Column({ type: 'boolean', default: false })
  system: boolean;

  @CreateDateColumn({ ...TIMESTAMP, name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ ...TIMESTAMP, name: 'updated_at' })
  updatedAt: Date;
}
