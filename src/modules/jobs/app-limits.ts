/** Token of the {@link AppLimitsLookup} the job runs read a job owner's cap with. */
export const APP_LIMITS = Symbol('APP_LIMITS');

/** An app's limits as its API client sets them; null for an unknown or disabled client (the defaults apply). */
export interface AppLimitsLookup {
  lookup(appId: string): Promise<{ maxUnfinishedTasks: number | null; egressAllow?: readonly string[] | null } | null>;
}
