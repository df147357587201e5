"""Extract WordNet 3.0's direct antonym pairs into evidencechain/features/semantic/data/antonyms.tsv.

Reads the database of Debian's `wordnet-base` package (`apt-get install wordnet-base`, files in
/usr/share/wordnet): every antonym pointer ("!") between two single-word lemmas of the noun,
verb, adjective and adverb files. Output: one `word<TAB>antonym<TAB>pos` line per unordered pair,
sorted, with the WordNet licence notice as a comment header. Run once; the TSV is committed.

    python -m evidencechain.features.semantic.wordnet_antonyms [/usr/share/wordnet] [OUT.tsv]
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

POS = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
NOTICE = """\
# Antonym pairs extracted from WordNet 3.0 (Debian package wordnet-base) by tools/wordnet_antonyms.py.
# WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved.
# Permission to use, copy, modify and distribute this software and database and its documentation
# for any purpose and without fee or royalty is hereby granted, provided that you agree to comply
# with the following copyright notice and statements, including the disclaimer, and that the same
# appear on ALL copies of the software, database and documentation, including modifications that
# you make for internal use or for distribution.
# THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS
# OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT LIMITATION, PRINCETON UNIVERSITY
# MAKES NO REPRESENTATIONS OR WARRANTIES OF MERCHANTABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE
# OR THAT THE USE OF THE LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD
# PARTY PATENTS, COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS.
# The name of Princeton University or Princeton may not be used in advertising or publicity
# pertaining to distribution of the software and/or database. Title to copyright in this software,
# database and any associated documentation shall at all times remain with Princeton University
# and LICENSEE agrees to preserve same.
"""


def _synsets(path: Path) -> dict[str, tuple[list[str], list[tuple[str, str, str, str]]]]:
    """offset -> (words, antonym pointers (target offset, target pos, source no, target no))."""
    out = {}
    for line in path.read_text(encoding="latin-1").splitlines():
        if line.startswith("  "):
            continue
        fields = line.split(" | ")[0].split()
        offset, n_words = fields[0], int(fields[3], 16)
        words = [re.sub(r"\(.*\)$", "", fields[4 + 2 * k]).lower() for k in range(n_words)]
        k = 4 + 2 * n_words
        n_ptr = int(fields[k])
        ptrs = []
        for p in range(n_ptr):
            sym, target, pos, st = fields[k + 1 + 4 * p:k + 5 + 4 * p]
            if sym == "!":
                ptrs.append((target, pos, st[:2], st[2:]))
        out[offset] = (words, ptrs)
    return out


def antonym_pairs(root: Path) -> set[tuple[str, str, str]]:
    pairs = set()
    for name, pos in POS.items():
        synsets = _synsets(root / f"data.{name}")
        for words, ptrs in synsets.values():
            for target, tpos, src, dst in ptrs:
                if tpos not in (pos, "s") or target not in synsets:
                    continue
                a, b = words[int(src, 16) - 1], synsets[target][0][int(dst, 16) - 1]
                if "_" in a or "_" in b or "-" in a or "-" in b or a == b:
                    continue
                pairs.add((*sorted((a, b)), "a" if pos == "s" else pos))
    return pairs


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path("/usr/share/wordnet")
    out = Path(argv[2]) if len(argv) > 2 else \
        Path(__file__).resolve().parent / "data/antonyms.tsv"
    if not (root / "data.adj").is_file():
        print(f"{root}: no WordNet database (apt-get install wordnet-base)", file=sys.stderr)
        return 2
    lines = [f"{a}\t{b}\t{pos}" for a, b, pos in sorted(antonym_pairs(root))]
    out.write_text(NOTICE + "word\tantonym\tpos\n" + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"{out}: {len(lines)} antonym pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
