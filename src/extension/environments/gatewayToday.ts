import { todayLocal, type CalendarDate } from '../../core/dates';
import { LOCAL_ENVIRONMENT } from '../../core/gateway/environments';
import { simulatedToday } from '../../local-gateway/simulatedDate';
import { activeEnvironmentName } from './settings';

// The gateway's own "today", wherever the real gateway would use its own: the day a row without start-date
// starts on (hovers, the forecast, a reconciliation of a batch the ledger never saw sent). With `local`
// active it is the local gateway's simulated date, read from its state directory without starting it.

export interface GatewayToday {
  today: CalendarDate;
  /** Set when it is the local gateway's simulated date, in words for people. */
  source?: string;
}

export const LOCAL_TODAY_SOURCE = "the local gateway's simulated date";

/** `localStateDir`: where the local gateway `local` keeps its state (its clock). */
export function gatewayToday(localStateDir: () => string, environment: string = activeEnvironmentName()): GatewayToday {
  if (environment === LOCAL_ENVIRONMENT) {
    const day = simulatedToday(localStateDir());
    if (day) return { today: day, source: LOCAL_TODAY_SOURCE };
  }
  return { today: todayLocal() };
}

/** The local state directory when `environment` is the local gateway, else undefined. */
export function localStateDirOf(environment: string, localStateDir: () => string): string | undefined {
  return environment === LOCAL_ENVIRONMENT ? localStateDir() : undefined;
}
