import type { Command } from '../command';

// (Being built.)
export const lint: Command = {
  summary: 'lint (not yet available)',
  async run() {
    process.stderr.write('paygate lint: not yet available\n');
    return 2;
  },
};
