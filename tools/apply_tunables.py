#!/usr/bin/env python3
"""Makes tuned values the defaults of the search tunables in src/search/tunables.rs.

Usage: tools/apply_tunables.py VALUES [--file src/search/tunables.rs] [--check]

VALUES holds `name, value` lines, as `tools/spsa.py --show` and OpenBench's SPSA
results print them (`-` reads standard input; blank lines and `#` comments are skipped).
Each value must be a whole number within its tunable's range, and each name a tunable's.
The file is rewritten only if every line is good; each change is printed as
`name: old -> new`. With --check nothing is written. A new default changes the bench:
rebuild and run `harrier bench` for the commit's `Bench:` line.

Standard library only.
"""

import argparse
import pathlib
import re
import sys

# One declaration: `name: type = default in min..=max, c_end C, r_end R;`
DECLARATION = re.compile(
    r"^(?P<indent>\s*)(?P<name>[a-z_][a-z0-9_]*): (?P<type>\w+) = (?P<default>-?\d+) "
    r"in (?P<min>-?\d+)\.\.=(?P<max>-?\d+),",
    re.MULTILINE,
)


def read_values(text: str) -> dict:
    """The `name, value` lines of `text`; an error names a line that is not one."""
    values = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = [part.strip() for part in line.split(",")]
        if len(parts) != 2 or not re.fullmatch(r"-?\d+(\.0*)?", parts[1]):
            raise ValueError(f"line {number}: `{line}` is not `name, whole number`")
        if parts[0] in values:
            raise ValueError(f"line {number}: {parts[0]} given twice")
        values[parts[0]] = int(float(parts[1]))
    return values


def apply(source: str, values: dict) -> tuple:
    """`source` with the defaults of `values`, and the changes as (name, old, new)."""
    declared = {match.group("name"): match for match in DECLARATION.finditer(source)}
    unknown = sorted(set(values) - set(declared))
    if unknown:
        raise ValueError(f"not tunables: {', '.join(unknown)}")
    for name, value in values.items():
        low, high = int(declared[name].group("min")), int(declared[name].group("max"))
        if not low <= value <= high:
            raise ValueError(f"{name}: {value} is outside {low}..={high}")
    changes = []
    pieces = []
    last = 0
    for name, match in sorted(declared.items(), key=lambda item: item[1].start()):
        old = int(match.group("default"))
        if name not in values or values[name] == old:
            continue
        start, end = match.span("default")
        pieces += [source[last:start], str(values[name])]
        last = end
        changes.append((name, old, values[name]))
    pieces.append(source[last:])
    return "".join(pieces), changes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("values", help="`name, value` lines, or - for standard input")
    parser.add_argument("--file", default="src/search/tunables.rs", help="the declarations (default %(default)s)")
    parser.add_argument("--check", action="store_true", help="print the changes, write nothing")
    args = parser.parse_args()
    text = sys.stdin.read() if args.values == "-" else pathlib.Path(args.values).read_text(encoding="utf-8")
    path = pathlib.Path(args.file)
    try:
        updated, changes = apply(path.read_text(encoding="utf-8"), read_values(text))
    except ValueError as error:
        print(f"apply_tunables: {error}", file=sys.stderr)
        return 1
    for name, old, new in changes:
        print(f"{name}: {old} -> {new}")
    print(f"{len(changes)} defaults changed" + (" (--check: nothing written)" if args.check else ""))
    if changes and not args.check:
        path.write_text(updated, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
