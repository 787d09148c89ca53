# The reference for `npm run bench:query`: the same group-by as `paygate query FILE --group-by
# Currency,Transaction_type --sum Amount`, in Python with its csv module and exact Decimal sums. Prints
# {"Currency|Transaction_type": "sum"} as JSON on standard output and the peak RSS in bytes on standard error.
import csv
import json
import resource
import sys
from decimal import Decimal, InvalidOperation


def main(path: str, keys: list[str], amount: str) -> None:
    sums: dict[tuple[str, ...], Decimal] = {}
    skipped = 0
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        header = next(rows)
        at = [header.index(k) for k in keys]
        a = header.index(amount)
        for row in rows:
            key = tuple(row[i] for i in at)
            try:
                value = Decimal(row[a])
            except InvalidOperation:
                skipped += 1
                continue
            sums[key] = sums.get(key, Decimal(0)) + value
    print(json.dumps({"|".join(k): str(v) for k, v in sorted(sums.items())}))
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2].split(","), sys.argv[3])
