import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { type Caller, namedApp } from '../../jobs/index.js';
import { NotificationDeliveryRepository, NotificationOutboxRepository, Scope } from '../../metadata/index.js';
import { CurrentCaller } from '../auth/caller.js';
import { RequireScope } from '../auth/scope.guard.js';
import { Signed } from '../auth/signed.decorator.js';
import { cursorPage, decodeCursor, pageOf } from '../dto/list.dto.js';
import { NotificationListQueryDto, NotificationPageDto } from '../dto/notification.dto.js';
import { ApiProblem } from '../dto/problem.dto.js';
import { ReadGate } from '../services/read-gate.js';
import { toNotificationView } from '../views/notification-view.js';

/** An app's notification messages (docs/notifications.md "Reading notifications", docs/api.md). */
@ApiTags('notifications')
@Signed()
@Controller('api/notifications')
export class NotificationsController {
  constructor(
    private readonly messages: NotificationOutboxRepository,
    private readonly deliveries: NotificationDeliveryRepository,
    private readonly gate: ReadGate,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @RequireScope(Scope.JOBS_READ)
  @ApiOperation({
    summary: 'Notification messages, newest first (paged by cursor, or offset, and limit)',
    description:
      "The calling app's messages in this namespace (an admin's list: every app's, or those of ?appId=), " +
      'optionally of one state, kind or rule, each with its deliveries (one per channel: state, tries, last ' +
      'error). A URL is shown without its query string.',
  })
  @ApiOkResponse({ type: NotificationPageDto })
  @ApiProblem(400, 'A bad query (state, kind, rule, appId, offset, limit, cursor); `field` names it.')
  async list(@CurrentCaller() caller: Caller, @Query() q: NotificationListQueryDto): Promise<NotificationPageDto> {
    const at = q.cursor === undefined ? undefined : decodeCursor('n', q.cursor, /^[A-Za-z0-9-]{1,36}$/, q.offset);
    const { offset, limit } = pageOf(q);
    const appId = namedApp(caller, q.appId, true);
    const filter = { namespace: this.config.namespace, appId, state: q.state, kind: q.kind, rule: q.rule };
    const after = at && { createdAt: at.key, id: at.tie };
    const { rows, total, deliveries } = await this.gate.run(caller.appId, async () => {
      const [rows, total] = await Promise.all([
        this.messages.listPage(filter, offset, limit + 1, after),
        this.messages.countPage(filter),
      ]);
      return { rows, total, deliveries: await this.deliveries.ofMessages(rows.slice(0, limit).map((n) => n.id)) };
    });
    const { page, nextCursor } = cursorPage('n', rows, limit, (n) => ({ key: n.createdAt, tie: n.id }));
    return { total, items: page.map((n) => toNotificationView(n, deliveries.get(n.id) ?? [])), nextCursor };
  }
}
