"""What model extraction costs: citegraph's LLM extractor and LightRAG on the same book,
against the same local OpenAI-compatible stub, in the same run.

The stub (citegraph.testing.OpenAIStubServer, real HTTP on loopback) counts every chat call
and the prompt tokens it receives with tiktoken's cl100k_base, and replies with an empty
extraction in each tool's own format (citegraph: empty JSON; LightRAG: its completion
delimiter). An empty reply is LightRAG's cheapest case: with entities it would also make
description-summary calls. Embeddings (LightRAG needs them) are computed in-process.

Measured, per MB of text: chat calls and prompt tokens of each; citegraph's
`--estimate` figure against what the stub counted; and a re-ingest of unchanged bytes
(calls: 0 expected). Targets: at most 1/3 of LightRAG's calls and prompt tokens per MB; the
estimate within 10% of what was spent.

Needs an environment with citegraph, lightrag-hku and tiktoken, and tiktoken's encoding
files where tiktoken looks (TIKTOKEN_CACHE_DIR), since nothing is downloaded:

    python -m venv /tmp/bench-env
    /tmp/bench-env/bin/pip install -e . lightrag-hku==1.5.7 tiktoken
    TIKTOKEN_CACHE_DIR=/path/to/tiktoken-files /tmp/bench-env/bin/python bench/extract_cost.py

Where only package registries are reachable, the encoding files are in packages there (the
npm package `tiktoken` ships them under encoders/ in a compact form of the same ranks);
tiktoken checks each file's sha256 when it loads it, so a wrong file fails, never miscounts.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


class Meter:
    """Calls and prompt tokens the stub received, per tool."""

    def __init__(self) -> None:
        import tiktoken

        self.encoding = tiktoken.get_encoding("cl100k_base")
        self.lock = threading.Lock()
        self.calls = 0
        self.prompt_tokens = 0

    def usage(self, messages: list[dict[str, str]], reply: str) -> tuple[int, int]:
        prompt = sum(len(self.encoding.encode(m.get("content") or "")) + 4 for m in messages)
        with self.lock:
            self.calls += 1
            self.prompt_tokens += prompt
        return prompt, len(self.encoding.encode(reply))

    def take(self) -> tuple[int, int]:
        with self.lock:
            taken = (self.calls, self.prompt_tokens)
            self.calls = self.prompt_tokens = 0
        return taken


def respond(messages: list[dict[str, str]]) -> str:
    """An empty extraction, in the format each tool asked for."""
    said = " ".join(m.get("content") or "" for m in messages)
    if "<|COMPLETE|>" in said:
        return "<|COMPLETE|>"
    return '{"entities": [], "relations": []}'


def run_citegraph(url: str, text: bytes, meter: Meter, gleanings: int = 0) -> dict[str, Any]:
    import citegraph
    from citegraph.config import load_settings
    from citegraph.extract.llm import LLMExtractor

    with tempfile.TemporaryDirectory() as home:
        settings = replace(load_settings(home=Path(home)), extract=False, store_linger_s=0)
        with citegraph.Workspace(settings) as ws:
            chat = citegraph.OpenAIChat("stub", base_url=url, api_key="x")
            extractor = LLMExtractor(chat, gleanings=gleanings)
            scope = ws.scope("book")
            scope.ingest(text, name="book.txt")
            estimate = scope.extraction_estimate(extractor)
            meter.take()
            started = time.perf_counter()
            run = scope.extract(extractor)
            seconds = time.perf_counter() - started
            calls, tokens = meter.take()
            # The same bytes ingested again, with the model extracting at ingest.
            ws.extractor = extractor
            [again] = scope.ingest(text, name="book.txt")
            again_calls, _ = meter.take()
            # And the document dropped and ingested anew: every reply comes from the cache.
            scope.delete_document("book.txt")
            [anew] = scope.ingest(text, name="book.txt")
            anew_calls, _ = meter.take()
    assert anew.extraction is not None
    return {
        "calls": calls, "prompt_tokens": tokens, "seconds": round(seconds, 2),
        "run_calls": run.calls, "estimate_calls": estimate.calls,
        "estimate_prompt_tokens": estimate.prompt_tokens,
        "reingest_unchanged_calls": again_calls, "reingest_status": again.status.value,
        "deleted_and_ingested_again_calls": anew_calls,
        "deleted_and_ingested_again_cached": anew.extraction.cached,
    }  # fmt: skip


def run_lightrag(url: str, text: bytes, meter: Meter) -> dict[str, Any]:
    import numpy as np
    from lightrag import LightRAG
    from lightrag.kg.shared_storage import initialize_pipeline_status
    from lightrag.llm.openai import openai_complete_if_cache
    from lightrag.utils import EmbeddingFunc

    async def llm(
        prompt: str,
        system_prompt: str | None = None,
        history_messages: list[dict[str, str]] | None = None,
        **kw: Any,
    ) -> str:
        kw.pop("keyword_extraction", None)
        return await openai_complete_if_cache(
            "stub", prompt, system_prompt=system_prompt, history_messages=history_messages or [],
            base_url=url, api_key="x", **kw,
        )  # fmt: skip

    async def embed(texts: list[str]) -> Any:
        rows = []
        for t in texts:
            seed = int.from_bytes(hashlib.sha256(t.encode()).digest()[:4], "little")
            rows.append(np.random.default_rng(seed).standard_normal(64))
        return np.array(rows, dtype=np.float32)

    async def insert(directory: str) -> None:
        rag = LightRAG(
            working_dir=directory,
            llm_model_func=llm,
            embedding_func=EmbeddingFunc(embedding_dim=64, max_token_size=8192, func=embed),
        )
        await rag.initialize_storages()
        await initialize_pipeline_status()
        await rag.ainsert(text.decode())
        await rag.finalize_storages()

    with tempfile.TemporaryDirectory() as directory:
        meter.take()
        started = time.perf_counter()
        asyncio.run(insert(directory))
        seconds = time.perf_counter() - started
        calls, tokens = meter.take()
    return {"calls": calls, "prompt_tokens": tokens, "seconds": round(seconds, 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--text", type=Path,
        default=ROOT.parent / "shared" / "datasets" / "alice" / "pg11_alice_body.txt",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from citegraph.testing import OpenAIStubServer

    text = args.text.read_bytes()
    mb = len(text) / 2**20
    meter = Meter()
    with OpenAIStubServer(respond, usage=meter.usage) as server:
        ours = run_citegraph(server.url, text, meter)
        # Like for like: LightRAG gleans once by default (entity_extract_max_gleaning=1).
        gleaning = run_citegraph(server.url, text, meter, gleanings=1)
        theirs = run_lightrag(server.url, text, meter)
    figures = {
        "text": args.text.name, "MB": round(mb, 3), "citegraph": ours, "lightrag": theirs,
        "citegraph_gleaning_1": gleaning,
        "gleaning_1_ratios": {
            "calls": round(gleaning["calls"] / theirs["calls"], 3),
            "prompt_tokens": round(gleaning["prompt_tokens"] / theirs["prompt_tokens"], 3),
            "estimate_error": round(
                gleaning["estimate_prompt_tokens"] / gleaning["prompt_tokens"] - 1, 3
            ),
        },
        "calls_per_MB": {
            "citegraph": round(ours["calls"] / mb), "lightrag": round(theirs["calls"] / mb),
        },
        "prompt_tokens_per_MB": {
            "citegraph": round(ours["prompt_tokens"] / mb),
            "lightrag": round(theirs["prompt_tokens"] / mb),
        },
        "calls_ratio": round(ours["calls"] / theirs["calls"], 3),
        "prompt_tokens_ratio": round(ours["prompt_tokens"] / theirs["prompt_tokens"], 3),
        "estimate_error": round(ours["estimate_prompt_tokens"] / ours["prompt_tokens"] - 1, 3),
    }  # fmt: skip
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{args.text.name}: {mb:.3f} MB, one stub, tokens counted with cl100k_base")
        print(f"{'':24}{'calls':>8}{'calls/MB':>10}{'prompt tokens':>15}{'tokens/MB':>12}")
        rows = (("citegraph LLMExtractor", ours), ("  with gleanings=1", gleaning),
                ("LightRAG 1.5.7", theirs))  # fmt: skip
        for name, got in rows:
            print(f"{name:24}{got['calls']:>8}{got['calls'] / mb:>10.0f}"
                  f"{got['prompt_tokens']:>15}{got['prompt_tokens'] / mb:>12.0f}")  # fmt: skip
        print(f"ratios (citegraph / LightRAG): calls {figures['calls_ratio']}, prompt tokens "
              f"{figures['prompt_tokens_ratio']} (target <= 0.333 each)")  # fmt: skip
        print(f"estimate: {ours['estimate_calls']} calls, {ours['estimate_prompt_tokens']} prompt "
              f"tokens; spent {ours['calls']} calls, {ours['prompt_tokens']} (error "
              f"{figures['estimate_error']:+.1%}, target within 10%)")  # fmt: skip
        print(f"with one gleaning round each (as LightRAG by default): calls "
              f"{figures['gleaning_1_ratios']['calls']}, prompt tokens "
              f"{figures['gleaning_1_ratios']['prompt_tokens']}; its estimate "
              f"{figures['gleaning_1_ratios']['estimate_error']:+.1%} (the rounds' prompts "
              "hold replies not yet made)")  # fmt: skip
        print(f"re-ingest of unchanged bytes: {ours['reingest_unchanged_calls']} calls "
              f"({ours['reingest_status']}); deleted and ingested again: "
              f"{ours['deleted_and_ingested_again_calls']} calls, "
              f"{ours['deleted_and_ingested_again_cached']} answered from the cache")  # fmt: skip
    ok = (
        figures["calls_ratio"] <= 1 / 3 and figures["prompt_tokens_ratio"] <= 1 / 3
        and abs(figures["estimate_error"]) <= 0.10 and ours["reingest_unchanged_calls"] == 0
    )  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
