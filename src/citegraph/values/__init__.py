"""The values that flow through citegraph, frozen and in one place: documents and chunks with
their byte spans, evidence and its verdict, answers with claims and citations, remembered
facts. Everything else computes them; no module here does I/O."""
