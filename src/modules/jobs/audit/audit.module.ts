import { Module } from '@nestjs/common';
import { MetadataModule } from '../../metadata/index.js';
import { AuditService } from './audit.service.js';

/** The audit trail writer (README "Audit"), shared by the job lifecycle, the API clients and the CLI. */
@Module({ imports: [MetadataModule], providers: [AuditService], exports: [AuditService] })
export class AuditModule {}
