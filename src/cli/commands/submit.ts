import type { Command } from '../command';

// (Being built.)
export const submit: Command = {
  summary: 'submit (not yet available)',
  async run() {
    process.stderr.write('paygate submit: not yet available\n');
    return 2;
  },
};
