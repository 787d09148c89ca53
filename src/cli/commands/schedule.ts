import type { Command } from '../command';

// (Being built.)
export const schedule: Command = {
  summary: 'schedule (not yet available)',
  async run() {
    process.stderr.write('paygate schedule: not yet available\n');
    return 2;
  },
};
