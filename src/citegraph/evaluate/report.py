"""The report of an evaluation: markdown, JSON-ready figures, and PNG plots (with the `eval`
extra: matplotlib; without it the plots are skipped, and the report says so)."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from .runner import EvalResult


def _figure(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def figures(result: EvalResult) -> dict[str, Any]:
    return {
        "questions": result.questions,
        "answerable": result.answerable,
        "unanswerable": result.unanswerable,
        "k": result.k,
        "recall_at_k": result.recall,
        "coverage": result.coverage,
        "precision": result.precision,
        "refused_unanswerable": result.refused_rate,
        "refusals": dict(result.refusals),
        "not_asked": dict(result.not_asked),
        "latency_ms_p50": result.latency_p50,
        "latency_ms_p95": result.latency(0.95),
        "curve": [asdict(p) for p in result.curve],
    }


def markdown(result: EvalResult, title: str, plots: list[str], note: str = "") -> str:
    lines = [
        f"# Evaluation: {title}",
        "",
        f"{result.questions} questions asked ({result.answerable} answerable, "
        f"{result.unanswerable} unanswerable).",
        "",
        "| measure | value |",
        "|---|---|",
        f"| retrieval recall@{result.k} (every gold document among the items) | "
        f"{_figure(result.recall)} |",
        f"| coverage (answerable questions answered) | {_figure(result.coverage)} |",
        f"| precision (a gold answer inside a cited quote) | {_figure(result.precision)} |",
        f"| unanswerable questions refused | {_figure(result.refused_rate)} |",
        f"| latency p50 / p95 (ms per question) | {_figure(result.latency_p50)} / "
        f"{_figure(result.latency(0.95))} |",
        "",
        "Refusals by reason: "
        + (", ".join(f"{k} {v}" for k, v in result.refusals.most_common()) or "none"),
    ]
    if result.not_asked:
        lines += ["", "Not asked: " + ", ".join(f"{k}: {v}" for k, v in result.not_asked.items())]
    if result.curve:
        lines += [
            "",
            "Precision against coverage as the offline answerer's `min_coverage` moves (the "
            "same evidence answered again):",
            "",
            "| min_coverage | coverage | precision | unanswerable refused |",
            "|---|---|---|---|",
        ]
        for p in result.curve:
            mark = " (default)" if p.default else ""
            lines.append(
                f"| {p.min_coverage:.2f}{mark} | {p.coverage:.3f} | {p.precision:.3f} | "
                f"{p.refused_unanswerable:.3f} |"
            )
    lines += [""] + [f"![{name}]({name})" for name in plots]
    if note:
        lines += ["", note]
    return "\n".join(lines) + "\n"


def plot(result: EvalResult, folder: Path) -> tuple[list[str], str]:
    """PNG plots in `folder`: their file names, or none and why."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # no display: files only
        import matplotlib.pyplot as plt
    except ImportError:
        return [], "Plots skipped: install the `eval` extra (pip install 'citegraph[eval]')."
    names: list[str] = []
    if result.curve:
        figure, axes = plt.subplots(figsize=(5, 4))
        axes.plot([p.coverage for p in result.curve], [p.precision for p in result.curve], "o-")
        for p in result.curve:
            axes.annotate(f"{p.min_coverage:.2f}", (p.coverage, p.precision), fontsize=7)
        axes.set_xlabel("coverage (answerable questions answered)")
        axes.set_ylabel("precision")
        axes.set_title("precision against coverage")
        figure.tight_layout()
        figure.savefig(folder / "precision-coverage.png", dpi=100)
        plt.close(figure)
        names.append("precision-coverage.png")
    if result.refusals:
        figure, axes = plt.subplots(figsize=(5, 3))
        reasons = result.refusals.most_common()
        axes.barh([r for r, _ in reasons], [n for _, n in reasons])
        axes.set_xlabel("questions")
        axes.set_title("refusals by reason")
        figure.tight_layout()
        figure.savefig(folder / "refusals.png", dpi=100)
        plt.close(figure)
        names.append("refusals.png")
    return names, ""
