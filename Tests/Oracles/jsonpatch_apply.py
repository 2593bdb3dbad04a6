#!/usr/bin/env python3
"""Independent RFC 6902 oracle: applies Footlight's patches with the `jsonpatch` package.

Reads JSON lines {"case": N, "a": ..., "patch": [...], "b": ...} on standard input,
applies each patch to `a` with jsonpatch.apply_patch (only its apply: never make_patch),
and compares the result with `b` as canonical JSON text (sorted keys, no spaces), since
jsonpatch itself treats `true` and `1` as equal. Prints one line per mismatch and a
final summary line "oracle: N passed, M failed"; exits 1 when any case failed.
"""
import json
import sys

import jsonpatch


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def main():
    passed = failed = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        record = json.loads(line)
        try:
            result = jsonpatch.apply_patch(record["a"], record["patch"])
        except Exception as error:  # any failure of the oracle is a mismatch to report
            failed += 1
            print(f"case {record['case']}: jsonpatch refused the patch: {error!r}")
            continue
        if canonical(result) == canonical(record["b"]):
            passed += 1
        else:
            failed += 1
            print(f"case {record['case']}: got {canonical(result)[:300]} expected {canonical(record['b'])[:300]}")
    print(f"oracle: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
