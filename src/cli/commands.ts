import type { Command } from './command';
import { lint } from './commands/lint';
import { fix } from './commands/fix';
import { schedule } from './commands/schedule';
import { sign } from './commands/sign';
import { submit } from './commands/submit';
import { report } from './commands/report';
import { gateway } from './commands/gateway';
import { demo } from './commands/demo';
import { trust } from './commands/trust';

export const commands: Record<string, Command> = { lint, fix, schedule, sign, submit, report, gateway, demo, trust };
