"""Compares two flags.json tables field by field: how a regenerated table differs from one made from a real --help.

usage: python3 scripts/catalogue/compare_tables.py NEW.json REFERENCE.json
"""

import json
import sys


def key(action):
    return tuple(action["flags"]) or (action["dest"],)


def main(new_path, reference_path):
    new = {key(a): a for a in json.load(open(new_path))}
    reference = {key(a): a for a in json.load(open(reference_path))}
    print(f"actions: {len(new)} regenerated, {len(reference)} reference")
    print(f"only regenerated: {sorted(set(new) - set(reference))}")
    print(f"only reference: {sorted(set(reference) - set(new))}")
    differences = {}
    for name in set(new) & set(reference):
        for field in set(new[name]) | set(reference[name]):
            if new[name].get(field) != reference[name].get(field):
                differences.setdefault(field, []).append(name[0])
    for field, names in sorted(differences.items()):
        print(f"{field}: {len(names)} differ, e.g. {sorted(names)[:3]}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
