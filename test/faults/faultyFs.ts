import { nodeLedgerFs, type LedgerFileHandle, type LedgerFs } from '../../src/core/ledger';

// A file system for the ledger that fails on cue: the Nth write (counted over every handle) is cut short,
// or fails with ENOSPC or EIO, or the Nth fsync fails. A short write really writes its first bytes, as a
// full disk does, so the torn line is on disk.

export type WriteFault = 'short' | 'short-then-enospc' | 'ENOSPC' | 'EIO' | 'fsync';

export interface FaultyFs extends LedgerFs {
  writes: number;
  syncs: number;
}

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected`), { code });
}

export function faultyFs(fault: WriteFault, nth: number): FaultyFs {
  const fs: FaultyFs = {
    ...nodeLedgerFs,
    writes: 0,
    syncs: 0,
    async open(p, flags, mode) {
      const real = await nodeLedgerFs.open(p, flags, mode);
      let cutShort = false;
      const handle: LedgerFileHandle = {
        read: (b, o, l, pos) => real.read(b, o, l, pos),
        stat: () => real.stat(),
        close: () => real.close(),
        async sync() {
          fs.syncs++;
          if (fault === 'fsync' && fs.syncs === nth) throw errno('EIO');
          return real.sync();
        },
        async write(buffer, offset, length) {
          fs.writes++;
          if (fs.writes === nth) {
            if (fault === 'ENOSPC' || fault === 'EIO') throw errno(fault);
            if (fault === 'short' || fault === 'short-then-enospc') {
              cutShort = fault === 'short-then-enospc';
              return real.write(buffer, offset, Math.max(1, Math.floor(length / 3)));
            }
          }
          if (cutShort) throw errno('ENOSPC');
          return real.write(buffer, offset, length);
        },
      };
      return handle;
    },
  };
  return fs;
}
