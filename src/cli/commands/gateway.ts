import type { Command } from '../command';

// (Being built.)
export const gateway: Command = {
  summary: 'gateway (not yet available)',
  async run() {
    process.stderr.write('paygate gateway: not yet available\n');
    return 2;
  },
};
