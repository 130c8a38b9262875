import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CallbackState } from '../../metadata/index.js';
import { CALLBACK_STATES, CallbackViewDto } from './callback.dto.js';
import { CursorListQueryDto } from './list.dto.js';
import { AppIdQuery } from './owner-query.dto.js';

const STATES = Object.values(CallbackState);

/** GET /api/callbacks/deliveries query: paged like the audit log. */
export class DeliveryListQueryDto extends CursorListQueryDto {
  @ApiPropertyOptional({ enum: STATES, description: `Deliveries in this state now. ${CALLBACK_STATES}` })
  @IsOptional()
  @IsIn(STATES, { message: `state must be one of ${STATES.join(', ')}` })
  state?: CallbackState;

  @AppIdQuery(
    "Admins only: this app's deliveries (default for an admin: every app's of the namespace; for anyone else: " +
      "its own). Another app's id without the admin scope is a 403.",
  )
  appId?: string;
}

/** One delivery of the list: its view as a task shows it, and where it belongs. Times ISO-8601 UTC. */
export class DeliveryViewDto extends CallbackViewDto {
  @ApiProperty({ description: 'The instance whose final state it carries (UUID).' }) instanceId: string;
  @ApiProperty({ description: 'The app whose callback it is (the instance owner).' }) appId: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "That instance's requestId (GET /api/tasks/{requestId}); null if the instance is gone.",
  })
  requestId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The job the instance is a fire of; null for a task.' })
  jobId: string | null;
  @ApiProperty({ description: 'host:port of url, lower case: the unit of per-host limits and of "host down".' })
  host: string;
  @ApiProperty({ description: 'When it was written (the instance reached its final state), UTC ISO-8601 (ms).' })
  createdAt: string;
  @ApiProperty({ description: 'When it last changed (a try, a redeliver), UTC ISO-8601 (ms).' }) updatedAt: string;
}

/** A page of deliveries, newest first. */
export class DeliveryPageDto {
  @ApiProperty({ description: 'How many deliveries match the filters in all (every page).' }) total: number;
  @ApiProperty({
    type: [DeliveryViewDto],
    description: 'This page, newest createdAt first (then by delivery id); at most `limit`.',
  })
  items: DeliveryViewDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Give as `cursor` for the next page; null when this page is the last.',
  })
  nextCursor: string | null;
}
