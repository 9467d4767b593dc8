"""Draw the judged sample of legacy pages: seeded, stratified by folder.

Usage: python bench/precision/sample.py [--pages DIR] [--size N] [--seed S] > bench/precision/sample.txt

The sample is drawn from *every* page of the development set, flagged or not, so that a
diagnostic a later change adds to a clean page is in scope (it shows as unjudged). Each folder
(``api_difference/nn``, ``api_difference_third_party/transformers`` ...) gets its share of the
size, rounded by largest remainder; pages within a folder are chosen by a seeded shuffle of
their sorted names. The first lines of the output say how it was drawn.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from pathlib import Path

from run import DEFAULT_PAGES


def draw(pages: list[str], size: int, seed: str) -> list[str]:
    """A stratified sample of ``size`` pages (relative paths), sorted."""
    strata: dict[str, list[str]] = defaultdict(list)
    for page in sorted(pages):
        strata[page.rsplit("/", 1)[0]].append(page)
    total = len(pages)
    quotas = {name: size * len(members) / total for name, members in strata.items()}
    counts = {name: int(q) for name, q in quotas.items()}
    by_remainder = sorted(quotas, key=lambda n: (-(quotas[n] - counts[n]), n))
    for name in by_remainder[: size - sum(counts.values())]:
        counts[name] += 1
    rng = random.Random(seed)
    chosen: list[str] = []
    for name in sorted(strata):
        members = list(strata[name])
        rng.shuffle(members)
        chosen.extend(members[: counts[name]])
    return sorted(chosen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=Path, default=DEFAULT_PAGES)
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--seed", default="apimap-precision-1")
    args = parser.parse_args()
    pages = [
        p.relative_to(args.pages).as_posix()
        for p in args.pages.rglob("*.md")
        if p.parent != args.pages  # the README and the older format guide are not pages
    ]
    print(f"# {args.size} of {len(pages)} pages, seed {args.seed!r}, stratified by folder")
    print(f"# python bench/precision/sample.py --size {args.size} --seed {args.seed}")
    for page in draw(pages, args.size, args.seed):
        print(page)


if __name__ == "__main__":
    main()
