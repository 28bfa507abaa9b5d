"""The JSON shape of adopted community reports, `citegraph-community-reports/1`, sent by
`citegraph reports --json`, `GET /v1/memory/community-reports` and the MCP tool
`community_reports`."""

from __future__ import annotations

from dataclasses import asdict
from typing import Literal

from pydantic import Field

from ..values.adopted import CommunityReport
from .shapes import Wire


class CommunityReportOut(Wire):
    key: str
    title: str
    summary: str
    full_content: str
    tool: str = Field(description="The tool that wrote it: its words, never a citation.")
    entities: list[str] = Field(description="The names of the entities it is about.")


class CommunityReportsOut(Wire):
    format: Literal["citegraph-community-reports/1"] = "citegraph-community-reports/1"
    entity: str | None = Field(description="The name asked about; null: every report.")
    citable: Literal[False] = Field(
        False, description="Always false: a report is another tool's summary, not stored text."
    )
    reports: list[CommunityReportOut]


def community_reports_shape(
    entity: str | None, reports: list[CommunityReport]
) -> CommunityReportsOut:
    return CommunityReportsOut(
        entity=entity, citable=False, reports=[CommunityReportOut(**asdict(r)) for r in reports]
    )
