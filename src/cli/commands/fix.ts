import type { Command } from '../command';

// (Being built.)
export const fix: Command = {
  summary: 'fix (not yet available)',
  async run() {
    process.stderr.write('paygate fix: not yet available\n');
    return 2;
  },
};
