#!/usr/bin/env python3
"""Checks DocC's coverage of the library's public surface (make docs): every public symbol declared in
SegueRender has an abstract (a doc comment's first sentence). What the compiler or a protocol supplies is not
ours to document and is left out: ==/!=, Hashable, Codable and RawRepresentable members, and the members
AsyncSequence gives FrameSequence. Usage: scripts/check-doc-coverage.py ARCHIVE.doccarchive"""
import json
import re
import sys
from pathlib import Path

SUPPLIED = {"hash(into:)", "hashValue", "init(rawValue:)", "rawValue", "init(from:)", "encode(to:)",
            "localizedDescription", "RawValue", "AllCases", "allCases"}
NOT_SYMBOLS = {"CollectionGroup", "Article", "Extended Module", "Extended Structure", "Extended Enumeration",
               "Extended Class", "Extended Protocol", "Operator"}

archive = Path(sys.argv[1])
entries = json.loads((archive / "documentation-coverage.json").read_text())
missing = []
for e in entries:
    if e["hasAbstract"] or e["kind"]["name"] in NOT_SYMBOLS:
        continue
    path = e["referencePath"].split("/documentation/")[-1]
    leaf = path.rsplit("/", 1)[-1]
    # `Range-swift.enum`, `next()-31r6f`: DocC's disambiguation suffixes are not part of the name.
    base = re.sub(r"-[a-z0-9]{4,6}$", "", leaf.split("-swift.")[0])
    if base in SUPPLIED:
        continue
    # AsyncSequence's own operators on FrameSequence (map, filter, prefix...), and its Element/Failure.
    parts = path.split("/")
    if len(parts) == 3 and parts[1] == "FrameSequence" and parts[2] != "Iterator":
        continue
    # AsyncIteratorProtocol's own next(isolation:), and the default that forwards to it.
    if parts[1:3] == ["FrameSequence", "Iterator"] and leaf != "next()" and leaf != "Iterator":
        continue
    missing.append(f'{e["kind"]["name"]}: {path}')
documented = sum(1 for e in entries if e["hasAbstract"] and e["kind"]["name"] not in NOT_SYMBOLS)
if missing:
    print(f"check-doc-coverage.py: {len(missing)} public symbols of the library have no abstract (a /// comment):", file=sys.stderr)
    for m in sorted(missing):
        print(f"  {m}", file=sys.stderr)
    sys.exit(1)
print(f"ok   every public symbol declared in the library has an abstract ({documented} documented)")
