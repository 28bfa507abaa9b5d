"""Reading a PDF in a child process with bounded memory, time and pages.

A PDF is a program for its reader: an 815 KB file with a 200 MB Flate stream took the server
to 3 GB, and a 2 MB one made pdfium abort the process. So the text layer is read in a child
process (`python -m citegraph.ingest.pdf_guard`) that limits its own address space before it
reads anything; when it runs out of memory, crashes or takes too long, that file is refused
(`pdf-too-large`) and nothing else is affected. The limits are settings: CITEGRAPH_PDF_MEMORY_MB
(1024), CITEGRAPH_PDF_TIMEOUT (120 s), CITEGRAPH_PDF_MAX_PAGES (5000).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass

from ..config import Settings
from ..errors import InvalidDocument
from .pdf import PdfText, extract_pdf


@dataclass(frozen=True)
class PdfLimits:
    memory_mb: int = Settings.pdf_memory_mb
    timeout_s: int = Settings.pdf_timeout_s
    max_pages: int = Settings.pdf_max_pages

    @classmethod
    def of(cls, settings: Settings) -> PdfLimits:
        return cls(settings.pdf_memory_mb, settings.pdf_timeout_s, settings.pdf_max_pages)


def extract_pdf_guarded(data: bytes, label: str, limits: PdfLimits | None = None) -> PdfText:
    """The text layer of a PDF, read in a bounded child process; `InvalidDocument` when the
    file cannot be read within the limits."""
    limits = limits or PdfLimits()
    memory_mb, timeout_s, max_pages = limits.memory_mb, limits.timeout_s, limits.max_pages
    command = [
        sys.executable,
        "-m",
        "citegraph.ingest.pdf_guard",
        label,
        str(memory_mb),
        str(max_pages),
    ]
    try:
        done = subprocess.run(
            command, input=data, capture_output=True, timeout=timeout_s, check=False
        )
    except subprocess.TimeoutExpired:
        raise InvalidDocument(
            f"{label}: pdf-too-large: reading it took longer than {timeout_s} s "
            "(CITEGRAPH_PDF_TIMEOUT)"
        ) from None
    header, _, text = done.stdout.partition(b"\n")
    if done.returncode != 0 or not header:
        how = f"signal {-done.returncode}" if done.returncode < 0 else f"code {done.returncode}"
        raise InvalidDocument(
            f"{label}: pdf-too-large: reading it needed more than {memory_mb} MB of memory "
            f"(CITEGRAPH_PDF_MEMORY_MB) or crashed the reader ({how})"
        )
    said = json.loads(header)
    if "error" in said:
        raise InvalidDocument(str(said["error"]))
    return PdfText(text, tuple(said["page_starts"]), tuple(said["warnings"]))


def _work(label: str, memory_mb: int, max_pages: int) -> int:
    import resource

    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # an abort must not write a core dump
    data = sys.stdin.buffer.read()
    try:
        pdf = extract_pdf(data, label, max_pages=max_pages)
    except InvalidDocument as exc:
        sys.stdout.buffer.write(json.dumps({"error": str(exc)}).encode() + b"\n")
        return 0
    header = {"page_starts": list(pdf.page_starts), "warnings": list(pdf.warnings)}
    sys.stdout.buffer.write(json.dumps(header).encode() + b"\n" + pdf.text)
    return 0


if __name__ == "__main__":
    raise SystemExit(_work(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
