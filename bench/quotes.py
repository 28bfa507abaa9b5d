"""Quote matching speed, against Python's plain `bytes.find` of the exact quote, in one run.

1. Chunk-sized texts (Alice cut into about 2 KB chunks): locates per second, cold (each locate
   folds its text) and warm (the text prepared once with FoldedText, as when several quotes are
   checked against one evidence item), for quotes typed exactly and re-typed (straight quotes,
   no emphasis marks, `--` for dashes).
2. The whole book (151 KB) as the text.
3. Hostile inputs at growing sizes: the time per MB stays flat when matching is linear.

Targets: at least 20,000 locates per second on chunk-sized texts, and within 10x of the plain
find.

    python bench/quotes.py [--datasets ../shared/datasets]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from pathlib import Path

from citegraph.ingest.chunking import chunk_spans
from citegraph.text.fold import FoldedText
from citegraph.text.quotes import locate, locate_in

ROOT = Path(__file__).resolve().parent.parent
VERDICTS: list[str] = []
RETYPE = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "—": "--", "_": None})


def _rate(run: Callable[[], int], seconds: float = 1.0) -> float:
    """Calls per second of `run` (which does a batch and returns its size), over ~`seconds`."""
    done, started = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        done += run()
    return done / elapsed


def _quotes(texts: list[str], rng: random.Random, per_text: int) -> list[tuple[int, str]]:
    picked: list[tuple[int, str]] = []
    for index, text in enumerate(texts):
        words = text.split(" ")
        for _ in range(per_text):
            start = rng.randrange(max(1, len(words) - 12))
            picked.append((index, " ".join(words[start : start + rng.randint(6, 20)]).strip()))
    return [(i, q) for i, q in picked if sum(ch.isalpha() for ch in q) >= 12]


def chunk_rates(book: str, rng: random.Random) -> None:
    data = book.encode()
    chunks = [data[s:e].decode() for s, e in chunk_spans(data, 2000)]
    chunk_bytes = [c.encode() for c in chunks]
    quotes = _quotes(chunks, rng, 4)
    retyped = [(i, q.translate(RETYPE)) for i, q in quotes]
    prepared = [FoldedText(c) for c in chunks]
    encoded = [(i, q.encode()) for i, q in quotes]
    misses = sum(not locate(q, chunks[i]).found for i, q in retyped)
    assert misses == 0, f"{misses} re-typed quotes not located"

    def plain() -> int:
        for i, q in encoded:
            chunk_bytes[i].find(q)
        return len(encoded)

    def cold(batch: list[tuple[int, str]]) -> Callable[[], int]:
        def run() -> int:
            for i, q in batch:
                locate(q, chunks[i])
            return len(batch)

        return run

    def warm(batch: list[tuple[int, str]]) -> Callable[[], int]:
        def run() -> int:
            for i, q in batch:
                locate_in(q, prepared[i])
            return len(batch)

        return run

    base = _rate(plain)
    size = sum(len(c) for c in chunk_bytes) / len(chunk_bytes)
    print(
        f"\nchunk-sized texts: {len(chunks)} chunks of {size:,.0f} bytes on average, "
        f"{len(quotes)} quotes"
    )
    print(f"  plain bytes.find, exact quote    {base:>12,.0f} /s")
    for label, batch in (("exact", quotes), ("re-typed", retyped)):
        for mode, make in (("cold", cold), ("warm", warm)):
            rate = _rate(make(batch))
            print(
                f"  locate {label:8} {mode:4}            {rate:>12,.0f} /s   "
                f"{base / rate:5.1f}x the plain find"
            )
            if label == "re-typed":
                VERDICTS.append(
                    f"chunks, {mode}: {rate:,.0f}/s "
                    f"({'meets' if rate >= 20_000 else 'misses'} 20,000/s), "
                    f"{base / rate:.1f}x the plain find "
                    f"({'within' if base / rate <= 10 else 'over'} 10x)"
                )


def book_rates(book: str, rng: random.Random) -> None:
    data = book.encode()
    quotes = [q for _, q in _quotes([book], rng, 200)]
    retyped = [q.translate(RETYPE) for q in quotes]
    prepared = FoldedText(book)
    encoded = [q.encode() for q in quotes]

    def plain() -> int:
        for q in encoded:
            data.find(q)
        return len(encoded)

    def warm() -> int:
        for q in retyped:
            locate_in(q, prepared)
        return len(retyped)

    def cold() -> int:
        for q in retyped[:10]:
            locate(q, book)
        return 10

    base = _rate(plain)
    print(f"\nthe whole book ({len(data):,} bytes), {len(quotes)} quotes")
    print(f"  plain bytes.find, exact quote    {base:>12,.0f} /s")
    for mode, run in (("warm", warm), ("cold", cold)):
        rate = _rate(run)
        print(
            f"  locate re-typed {mode:4}             {rate:>12,.0f} /s   "
            f"{base / rate:5.1f}x the plain find"
        )
        VERDICTS.append(
            f"whole book, {mode}: {base / rate:.1f}x the plain find "
            f"({'within' if base / rate <= 10 else 'over'} 10x)"
        )


def hostile() -> None:
    cases: dict[str, Callable[[int], tuple[str, str]]] = {
        "periodic text, near-miss quote (n/10)": lambda n: ("a" * n, "a" * (n // 10) + "b"),
        "runs of marks, quote at the end": lambda n: (("_* \n—" * (n // 5)) + "needle", "needle"),
        "quote of n/10 elisions": lambda n: ("text " * (n // 5), "a ... " * (n // 60)),
        "quote of n/10 whitespace": lambda n: ("text " * (n // 5), " \n\t" * (n // 30)),
        "quote of n/10 emphasis marks": lambda n: ("text " * (n // 5), "_*" * (n // 20)),
        "quote with a lone surrogate": lambda n: ("text " * (n // 5), "x" * (n // 10) + "\ud800"),
        # Every occurrence cuts a word, so each is a candidate checked and refused.
        "quote only inside words (n/3 times)": lambda n: ("xab" * (n // 3), "ab"),
    }
    print("\nhostile inputs (text of n bytes): seconds, and seconds per MB (flat = linear)")
    sizes = [1, 2, 4, 8]
    print(f"  {'case':40}" + "".join(f"{f'{m} MB':>16}" for m in sizes))
    for label, make in cases.items():
        cells = []
        for megabytes in sizes:
            text, quote = make(megabytes * 2**20)
            started = time.perf_counter()
            locate(quote, text)
            seconds = time.perf_counter() - started
            cells.append(f"{seconds:7.3f} ({seconds / megabytes:5.3f})")
        print(f"  {label:40}" + "".join(f"{c:>16}" for c in cells))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--datasets", type=Path, default=ROOT.parent / "shared" / "datasets")
    args = parser.parse_args()
    path = args.datasets / "alice" / "pg11_alice_body.txt"
    if not path.exists():
        print(f"Alice not found at {path}; the chunk and book figures need it")
        hostile()
        return 1
    book = path.read_text(encoding="utf-8")
    rng = random.Random(11)
    chunk_rates(book, rng)
    book_rates(book, rng)
    hostile()
    print("\ntargets: >= 20,000 locates/s on chunk-sized texts; within 10x of the plain find")
    for line in VERDICTS:
        print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
