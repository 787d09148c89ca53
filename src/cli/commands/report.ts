import type { Command } from '../command';

// (Being built.)
export const report: Command = {
  summary: 'report (not yet available)',
  async run() {
    process.stderr.write('paygate report: not yet available\n');
    return 2;
  },
};
