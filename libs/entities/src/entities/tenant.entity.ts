import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Plan, PLANS } from '@sesame/common';
import { TIMESTAMP } from './columns';

@Entity('tenant')
export class Tenant {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'enum', enum: PLANS, enumName: 'tenant_plan' })
  plan: Plan;

  @CreateDateColumn({ ...TIMESTAMP, name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ ...TIMESTAMP, name: 'updated_at' })
  updatedAt: Date;
}
