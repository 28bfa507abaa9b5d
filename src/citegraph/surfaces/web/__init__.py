"""The web UI: one page and the project's own JavaScript, CSS and SVG, served by `citegraph
serve` at `/` from the package (no CDN, no build step, nothing third-party). It reads and
writes only through the HTTP API (/v1/...), with the token the person enters once, kept in
the browser session (never in a URL). docs/ui.md."""

from __future__ import annotations

import functools
from importlib import resources

from fastapi import APIRouter, HTTPException
from fastapi.responses import Response

router = APIRouter(include_in_schema=False)

_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8"}  # fmt: skip
# Everything comes from this server: a page that cannot reach anywhere else leaks nothing.
_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
_FILES = ("index.html", "app.css", "app.js", "common.js", "ask.js", "impact.js", "knowledge.js")


@functools.cache
def _read(name: str) -> bytes:
    # Read once per process: the files are the package's, not data that changes.
    return resources.files(__package__).joinpath("static", name).read_bytes()


def _file(name: str) -> Response:
    if name not in _FILES:
        raise HTTPException(404)
    suffix = name[name.rindex(".") :]
    return Response(_read(name), media_type=_TYPES[suffix], headers=_HEADERS)


@router.get("/")
async def page() -> Response:
    return _file("index.html")


@router.get("/ui/{name}")
async def asset(name: str) -> Response:
    return _file(name)
