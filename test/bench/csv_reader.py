"""The bench's Python reference: read a batch with Python's C csv reader (what a user reaches for in a
terminal) and print the number of records. `python3 csv_reader.py FILE`."""
import csv
import sys

with open(sys.argv[1], newline="", encoding="utf-8") as f:
    count = sum(1 for _ in csv.reader(f, delimiter=";"))
sys.stdout.write(str(count))
