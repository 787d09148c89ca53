import { parseGatewayDate, todayLocal, type CalendarDate } from '../core/dates';
import { LOCAL_ENVIRONMENT } from '../core/gateway/environments';
import { simulatedToday } from '../local-gateway/simulatedDate';
import { loadCliConfig } from './config';
import type { CliContext } from './context';
import { localStateDir } from './localGateway';

// The gateway's own "today" for the CLI's previews (schedule, forecast): the day a row without start-date
// starts on. With the local gateway as the active environment that is its simulated date, read from its
// state directory without starting it, not this machine's.

/** option: --today; local-gateway: the local gateway's simulated clock (the active environment is local); clock: this machine's. */
export type TodayFrom = 'option' | 'local-gateway' | 'clock';

export const TODAY_FROM_TEXT: Record<TodayFrom, string> = {
  option: '--today',
  'local-gateway': "the local gateway's simulated date; --today to choose another",
  clock: "this machine's date; --today to choose another",
};

/** The simulated day of the local gateway when the configuration's environment is local; undefined when none ran yet. */
function localGatewayToday(ctx: Pick<CliContext, 'cwd' | 'env'>): CalendarDate | undefined {
  const config = loadCliConfig(ctx.cwd, undefined, ctx.env);
  if (!config.ok || config.value.config.environment !== LOCAL_ENVIRONMENT) return undefined;
  return simulatedToday(localStateDir(ctx));
}

/** `--today` when given (an error text when it is no date), else the gateway's today and where it comes from. */
export function gatewayToday(
  ctx: Pick<CliContext, 'cwd' | 'env'>,
  option: string | undefined,
): { today: CalendarDate; from: TodayFrom } | { error: string } {
  if (option !== undefined) {
    const given = parseGatewayDate(option);
    return given ? { today: given, from: 'option' } : { error: `--today must be a date DD.MM.YYYY, not '${option}'` };
  }
  const simulated = localGatewayToday(ctx);
  return simulated ? { today: simulated, from: 'local-gateway' } : { today: todayLocal(), from: 'clock' };
}
