import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { type NotificationKind, NotificationRule } from '../entities/notification.entity.js';

/** The app id of a namespace default rule (docs/notifications.md "Rules"). */
export const NAMESPACE_DEFAULT = '*';

/** `notification_rule`: an app's rules and its namespace's defaults (docs/notifications.md "Rules"). */
@Injectable()
export class NotificationRuleRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(em?: EntityManager) {
    return (em ?? this.ds.manager).getRepository(NotificationRule);
  }

  /** The rules of `appId` ('*': the namespace defaults), by name. */
  listOf(namespace: string, appId: string): Promise<NotificationRule[]> {
    return this.repo().find({ where: { namespace, appId }, order: { name: 'ASC' } });
  }

  /** Rule `name` of `appId`, or null. */
  find(namespace: string, appId: string, name: string, em?: EntityManager): Promise<NotificationRule | null> {
    return this.repo(em).findOneBy({ namespace, appId, name });
  }

  /** How many rules `appId` holds. */
  countOf(namespace: string, appId: string, em?: EntityManager): Promise<number> {
    return this.repo(em).countBy({ namespace, appId });
  }

  /** The enabled rules of `appIds` and the namespace defaults, in one read. */
  enabledFor(namespace: string, appIds: readonly string[]): Promise<NotificationRule[]> {
    return this.repo().findBy({ namespace, appId: In([...new Set([...appIds, NAMESPACE_DEFAULT])]), enabled: true });
  }

  /** Every enabled rule of `kinds` in `namespace` (the scans'; a namespace holds at most its apps × 50). */
  enabledOfKinds(namespace: string, kinds: readonly NotificationKind[]): Promise<NotificationRule[]> {
    return this.repo().findBy({ namespace, kind: In([...kinds]), enabled: true });
  }

  /** Inserts or replaces `rule` (by id) inside `em`. */
  async save(rule: NotificationRule, em: EntityManager): Promise<void> {
    await this.repo(em).save(rule);
  }

  /** Removes rule `name` of `appId` inside `em`. @returns false when there was none. */
  async remove(namespace: string, appId: string, name: string, em: EntityManager): Promise<boolean> {
    return ((await this.repo(em).delete({ namespace, appId, name })).affected ?? 0) > 0;
  }
}
