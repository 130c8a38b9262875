import { DynamicModule, Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/index.js';
import { MetadataModule } from '../metadata/index.js';
import { NotificationEvaluator } from './evaluator/notification-evaluator.js';
import { notifyConfigProvider } from './notify-config.js';
import { NotificationRules } from './rules/notification-rules.service.js';
import { NotificationScans } from './scans/notification-scans.js';

/** An app's notification rules behind the API (docs/notifications.md "Rules"). */
@Module({})
export class NotificationRulesModule {
  /** @param jobs the app's one JobsModule.forRoot(...) instance (audit, the URL check). */
  static forRoot(jobs: DynamicModule): DynamicModule {
    return {
      module: NotificationRulesModule,
      imports: [MetadataModule, jobs],
      providers: [NotificationRules, notifyConfigProvider],
      exports: [NotificationRules],
    };
  }
}

/**
 * The evaluator (every scheduler pod) and the leader's scans (docs/notifications.md "Events"); the closer and
 * sender are NotificationSenderModule's.
 */
@Module({})
export class NotificationEvaluatorModule {
  /** @param trigger the app's one TriggerModule.forRoot({ scheduler: true }) (leader election). */
  static forRoot(trigger: DynamicModule): DynamicModule {
    return {
      module: NotificationEvaluatorModule,
      imports: [MetadataModule, DispatchModule, trigger],
      providers: [NotificationEvaluator, NotificationScans, notifyConfigProvider],
      exports: [NotificationEvaluator, NotificationScans],
    };
  }
}
