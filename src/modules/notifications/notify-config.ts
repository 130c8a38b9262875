import { APP_CONFIG, type AppConfig } from '../../config/index.js';

/** What the notification rules, evaluator and scans need of the settings (docs/notifications.md). Durations ms. */
export interface NotifyConfig {
  namespace: string;
  /** Whether e-mail can be sent here (SMTP_URL set): an e-mail channel is refused otherwise. */
  smtpConfigured: boolean;
  /** How often the evaluator looks for new events. */
  evalMs: number;
  /** NOTIFY_MAX_PER_HOUR: messages one app may be sent in an hour; test messages stop there too. */
  maxPerHour: number;
  /** How often the leader scans for missed deadlines, late starts, unadvertised handlers and down hosts. */
  scanMs: number;
}

export const NOTIFY_CONFIG = Symbol('NOTIFY_CONFIG');

/** The provider of {@link NOTIFY_CONFIG}, from the app's settings. */
export const notifyConfigProvider = {
  provide: NOTIFY_CONFIG,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig): NotifyConfig => ({
    namespace: config.namespace,
    smtpConfigured: config.smtpUrl !== null,
    evalMs: config.notifications.evalMs,
    scanMs: config.notifications.scanMs,
    maxPerHour: config.notifications.maxPerHour,
  }),
};
