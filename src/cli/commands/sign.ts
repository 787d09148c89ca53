import type { Command } from '../command';

// (Being built.)
export const sign: Command = {
  summary: 'sign (not yet available)',
  async run() {
    process.stderr.write('paygate sign: not yet available\n');
    return 2;
  },
};
