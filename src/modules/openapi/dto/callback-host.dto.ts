import { ApiProperty } from '@nestjs/swagger';
import { IsISO8601, Matches } from 'class-validator';
import { BOUNDS, MAX_REDELIVER_BY_HOST, MAX_REDELIVER_SINCE_MS } from '../../../common/index.js';
import { ListQueryDto } from './list.dto.js';
import { AppIdQuery } from './owner-query.dto.js';
import { BoundedString, stacked } from './validators.js';

const { callbackHost } = BOUNDS;
const SINCE_DAYS = MAX_REDELIVER_SINCE_MS / 86_400_000;
/** `host:port` as deliveries store it (a name or an IPv4 address, or an IPv6 one in brackets), port explicit. */
export const CALLBACK_HOST_PATTERN = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]):[0-9]{1,5}$/;

/** POST /api/callbacks/hosts/redeliver body. */
export class RedeliverHostDto {
  @stacked(
    BoundedString(callbackHost, {
      required: true,
      api: {
        description:
          `The receiving host:port, port explicit (${callbackHost.min}-${callbackHost.max} characters), as a ` +
          "delivery's `host` shows it (GET /api/callbacks/hosts, /api/callbacks/deliveries); any letter case.",
        example: 'hooks.example.com:443',
      },
    }),
    Matches(CALLBACK_HOST_PATTERN, { message: 'host must be host:port, e.g. hooks.example.com:443' }),
  )
  host: string;

  @ApiProperty({
    description:
      `Redeliver the deliveries that ended CALLBACK_FAILED at or after this instant: ISO-8601 with Z or an offset, ` +
      `at most ${SINCE_DAYS} days back, not in the future (a minute of clock skew allowed).`,
    example: '2026-12-01T10:00:00Z',
  })
  @IsISO8601({ strict: true }, { message: 'since must be an ISO-8601 instant' })
  @Matches(/(Z|[+-]\d{2}:\d{2})$/, { message: 'since needs Z or an offset' })
  since: string;
}

/** POST /api/callbacks/hosts/redeliver answer. */
export class RedeliverHostResultDto {
  @ApiProperty({ description: `Deliveries sent again from the start (at most ${MAX_REDELIVER_BY_HOST} per call).` })
  redelivered: number;
  @ApiProperty({ description: 'More deliveries match: call again (those redelivered no longer match).' })
  more: boolean;
}

/** GET /api/callbacks/hosts query. */
export class CallbackHostListQueryDto extends ListQueryDto {
  @AppIdQuery(
    "Admins only: this app's hosts (another app's id without the admin scope is a 403). Omitted: the caller's.",
  )
  appId?: string;
}

/** One receiving host of the app and its state (docs/callbacks.md "Hosts marked down"). Times ISO-8601 UTC. */
export class CallbackHostViewDto {
  @ApiProperty({ description: 'host:port, lower case.' }) host: string;
  @ApiProperty({
    enum: ['up', 'down'],
    description:
      "down: after CALLBACK_HOST_DOWN_AFTER (3) failed tries in a row of this app's, its deliveries to the host end " +
      'CALLBACK_FAILED (HOST_DOWN: …) but one kept for the probe; up again on the first answer (a probe, a ' +
      'redeliver by host).',
  })
  state: 'up' | 'down';
  @ApiProperty({ description: 'Failed tries in a row (timeouts, network errors, 5xx); 0 after an answer.' })
  consecutiveFailures: number;
  @ApiProperty({ type: String, nullable: true, description: 'Since when it is down; null while up.' })
  downSince: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'When it is probed next while down; else null.' })
  nextProbeAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The last failed try or probe: why it failed.' })
  lastError: string | null;
  @ApiProperty({ description: 'When the state last changed.' }) updatedAt: string;
}

/** GET /api/callbacks/hosts answer. */
export class CallbackHostPageDto {
  @ApiProperty({ description: 'Hosts of the app in all (every page).' }) total: number;
  @ApiProperty({
    type: [CallbackHostViewDto],
    description:
      "This page: the down hosts first, then by host. A host is listed once one of the app's tries to it failed; " +
      'one never failing has no row (up).',
  })
  items: CallbackHostViewDto[];
}
