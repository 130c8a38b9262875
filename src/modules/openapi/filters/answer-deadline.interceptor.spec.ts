import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { firstValueFrom, Observable, of } from 'rxjs';
import { StorageUnavailableError } from '../../../common/index.js';
import type { AppConfig } from '../../../config/index.js';
import { AnswerDeadlineInterceptor } from './answer-deadline.interceptor.js';
import { asStorageFault } from './storage-fault.js';

const ctx = {
  getType: () => 'http',
  getHandler: () => () => undefined,
  switchToHttp: () => ({ getRequest: () => ({ body: {} }) }),
} as unknown as ExecutionContext;

const hangs: CallHandler = { handle: () => new Observable(() => undefined) };

describe('AnswerDeadlineInterceptor', () => {
  const interceptor = new AnswerDeadlineInterceptor({ storageTimeoutMs: 100 } as AppConfig, new Reflector());

  it('should leave a slow route alone while no store failed', async () => {
    const seen: string[] = [];
    const sub = interceptor
      .intercept(ctx, hangs)
      .subscribe({ next: () => seen.push('answered'), error: () => seen.push('cut') });
    await new Promise((resolve) => setTimeout(resolve, 600));
    sub.unsubscribe();
    expect(seen).toEqual([]);
  });

  it('should pass an answer through', async () => {
    expect(await firstValueFrom(interceptor.intercept(ctx, { handle: () => of(42) }))).toBe(42);
  });

  it('should answer 503 naming Redis at 2 x STORAGE_TIMEOUT_MS once a Redis fault was seen', async () => {
    expect(asStorageFault(new Error('Command timed out'))).toBeInstanceOf(StorageUnavailableError);
    const started = Date.now();
    const err = await firstValueFrom(interceptor.intercept(ctx, hangs)).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'STORAGE_UNAVAILABLE', storage: 'redis' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('should map a refused MySQL connection and a lost one to the database, nothing else', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:3306'), {
      code: 'ECONNREFUSED',
      fatal: true,
    });
    const fault = asStorageFault(refused) as StorageUnavailableError;
    expect({ storage: fault.storage, detail: fault.message }).toEqual({
      storage: 'database',
      detail: expect.not.stringContaining('10.0.0.5'),
    });
    const lost = { query: 'SELECT 1', driverError: { code: 'PROTOCOL_CONNECTION_LOST', fatal: true } };
    expect((asStorageFault(lost) as StorageUnavailableError).storage).toBe('database');
    const other = new Error('boom');
    expect(asStorageFault(other)).toBe(other);
    const plainSocket = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(asStorageFault(plainSocket)).toBe(plainSocket);
  });
});
