import { ApiProperty } from '@nestjs/swagger';
import { BOUNDS, MAX_CALLBACK_REGISTRATIONS } from '../../../common/index.js';
import { CallbackState } from '../../metadata/index.js';
import { BoundedString, HANDLER_MESSAGE, NAME_PATTERN, NameString } from './validators.js';

const { callbackUrl, handler } = BOUNDS;

/** What a `callbackUrl` field is and the rules it must meet (docs/callbacks.md). */
export const CALLBACK_URL_DESCRIPTION =
  `Where the final state (SUCCESS, FAILED, TIMEOUT or CANCELLED) is POSTed once reached, signed with the app's ` +
  `secret (headers X-Tickwheel-Delivery, X-Tickwheel-Timestamp, X-Tickwheel-Signature; see docs/callbacks.md ` +
  `"Verifying"). http: or https:, at most ${callbackUrl.max} characters, no user name or password. Checked ` +
  `against the egress policy (narrowed by the app's egressAllow) without DNS: loopback, localhost, link-local, ` +
  `metadata (169.254.169.254) and the cluster's own services are a 400 naming the field; the resolved address is ` +
  `checked again at send time. Omitted: the app's registration for the handler, else its default ` +
  `(POST /api/callbacks/register), else no callback. Part of the body an idempotent resubmit is compared on.`;

/** The states of a delivery and what each means (docs/callbacks.md "Outbox"). */
export const CALLBACK_STATES =
  'PENDING: written, not tried yet; RETRYING: tried and failed, tried again at nextAttemptAt (after 5 s, 30 s, ' +
  '2 min, 10 min, 30 min by default, CALLBACK_RETRY_DELAYS_MS); DELIVERED: the receiver answered 2xx; ' +
  'CALLBACK_FAILED (final): tries spent, a 4xx other than 408/429 or a 3xx (not retried), an egress refusal of ' +
  'the resolved address, or older than CALLBACK_MAX_AGE_MS (24 h).';

/** What a redeliver does (docs/callbacks.md "Redeliver"); the task and job instance routes. */
export const REDELIVER_DESCRIPTION =
  'Sends the callback delivery again from the start: status PENDING, attempts 0, due now, the same deliveryId ' +
  '(X-Tickwheel-Delivery), whatever its state (DELIVERED and CALLBACK_FAILED included); a try in flight loses its ' +
  'claim and records nothing. Answers the delivery as it is now. Audit-logged (CALLBACK_REDELIVER). The receiver ' +
  'gets the same signed body (docs/callbacks.md "What is sent", "Verifying").';
export const NO_DELIVERY_409 =
  'The instance has no callback delivery: it is not final yet, or no callback URL applied when it finished ' +
  "(none of its own, no registration of the app's).";
/** POST /api/callbacks/register body. */
export class RegisterCallbackDto {
  @BoundedString(callbackUrl, {
    required: true,
    api: {
      description:
        `Where the app's final states are POSTed (signed: see docs/callbacks.md "Verifying"). http: or https:, at ` +
        `most ${callbackUrl.max} characters, no user name or password; checked against the egress policy ` +
        `(narrowed by the app's egressAllow) without DNS: loopback, localhost, link-local, metadata ` +
        `(169.254.169.254) and the cluster's own services are a 400 naming url.`,
      example: 'https://hooks.example.com/tickwheel',
    },
  })
  url: string;

  @NameString(handler, NAME_PATTERN, HANDLER_MESSAGE, {
    api: {
      description:
        `The handler name this URL is for (${handler.min}-${handler.max} of A-Z a-z 0-9 _ . : -); omitted: the ` +
        "app's default, used for every handler without its own. A task's or job's callbackUrl wins over both.",
      example: 'http',
    },
  })
  handler?: string;
}

/** One registration of the app. Times ISO-8601 UTC. */
export class CallbackRegistrationViewDto {
  @ApiProperty({ nullable: true, type: String, description: "The handler name; null for the app's default." })
  handler: string | null;
  @ApiProperty({ description: `Where final states are POSTed (http or https, at most ${callbackUrl.max} characters).` })
  url: string;
  @ApiProperty({ description: 'When it was first registered, UTC ISO-8601 (ms).' }) createdAt: string;
  @ApiProperty({ description: 'When its URL last changed, UTC ISO-8601 (ms).' }) updatedAt: string;
}

/** GET /api/callbacks answer. */
export class CallbackRegistrationListDto {
  @ApiProperty({
    description: `Registrations in all (= items.length: one page, at most ${MAX_CALLBACK_REGISTRATIONS}).`,
  })
  total: number;
  @ApiProperty({
    type: [CallbackRegistrationViewDto],
    description: `The app's registrations (at most ${MAX_CALLBACK_REGISTRATIONS}), the default first, then by handler.`,
  })
  items: CallbackRegistrationViewDto[];
}

/** An instance's callback delivery (the callback_delivery row). Times ISO-8601 UTC. */
export class CallbackViewDto {
  @ApiProperty({
    description:
      'The delivery id, sent as X-Tickwheel-Delivery on every try and redelivery: receivers deduplicate on it.',
  })
  deliveryId: string;
  @ApiProperty({ description: 'Where it is sent (the task or job URL, else the registration that applied).' })
  url: string;
  @ApiProperty({ enum: Object.values(CallbackState), description: CALLBACK_STATES }) status: string;
  @ApiProperty({ description: 'Tries made so far (a probe of a host marked down is not counted).' })
  attempts: number;
  @ApiProperty({ nullable: true, type: Number, description: "The last try's HTTP status; null before an answer." })
  lastStatusCode: number | null;
  @ApiProperty({ nullable: true, type: String, description: "Why the last try failed (e.g. 'timeout')." })
  lastError: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'When it is tried next (PENDING, RETRYING); else null.' })
  nextAttemptAt: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'When the receiver answered 2xx (DELIVERED).' })
  deliveredAt: string | null;
}
