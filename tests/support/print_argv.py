"""A program that prints its arguments as one JSON line (and, with ARGV_LOG set, appends
that line to the file it names): what a command was given, byte for byte."""

import json
import os
import sys

line = json.dumps(sys.argv[1:])
print(line)
if log := os.environ.get("ARGV_LOG"):
    with open(log, "a", encoding="utf-8") as out:
        out.write(line + "\n")
