/** Token of the {@link AppLimitsLookup} the job runs read a job owner's cap with. */
export const APP_LIMITS = Symbol('APP_LIMITS');

/**
 * An app's own limits as its API client sets them (the api role's client cache provides it); null for an
 * app whose client is unknown or disabled (its work then takes the settings' defaults).
 */
export interface AppLimitsLookup {
  lookup(appId: string): Promise<{ maxUnfinishedTasks: number | null } | null>;
}
