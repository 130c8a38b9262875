import { type CallbackDelivery, type CallbackRegistration, CallbackState } from '../../metadata/index.js';
import { CallbackRegistrationViewDto, CallbackViewDto } from '../dto/callback.dto.js';
import { iso } from './iso.js';

/** The public view of a delivery; `nextAttemptAt` only while one is due (PENDING, RETRYING). */
export function toCallbackView(d: CallbackDelivery): CallbackViewDto {
  const due = d.state === CallbackState.PENDING || d.state === CallbackState.RETRYING;
  return {
    deliveryId: d.id,
    url: d.url,
    status: d.state,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    nextAttemptAt: due ? iso(d.nextAttemptAt) : null,
    deliveredAt: iso(d.deliveredAt),
  };
}

/** The public view of a registration: handler '' (the app's default) shows as null. */
export function toRegistrationView(r: CallbackRegistration): CallbackRegistrationViewDto {
  return {
    handler: r.handler === '' ? null : r.handler,
    url: r.url,
    createdAt: iso(r.createdAt) as string,
    updatedAt: iso(r.updatedAt) as string,
  };
}
