"""/v1/documents: upload, list and delete documents."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, File, Form, Query, UploadFile

from ...errors import DocumentNotFound
from ...limits import MAX_NAME
from ...service import shapes as s
from ...service.tokens import Right
from ...values.documents import Chunk, Document
from . import bodies as b
from .deps import ScopeForm, ScopeQuery, Services, Token
from .guard import ApiError
from .uploads import upload_name

router = APIRouter(prefix="/v1/documents", tags=["documents"])


@router.post("", response_model=b.IngestResponse)
async def upload(
    service: Services,
    token: Token,
    scope: ScopeForm,
    file: Annotated[list[UploadFile], File(description="One or more documents.")],
    title: Annotated[str | None, Form(max_length=MAX_NAME)] = None,
) -> b.IngestResponse:
    """Upload and ingest documents (multipart). Each is checked in full before any of it
    is stored; a bad one is refused (422) with nothing of it stored."""
    target = service.scope(token, scope, Right.WRITE)
    if title is not None and len(file) != 1:
        raise ApiError(422, "invalid_request", "title: applies to a single file")
    items: list[tuple[str, bytes, str | None]] = []
    for part in file:
        name = upload_name(part)
        if not name:
            raise ApiError(422, "invalid_request", "file: every part needs a file name")
        items.append((name, await part.read(), title))
    results = await service.guard.run(lambda: target.ingest_many(items))
    return b.IngestResponse(results=[s.ingested_shape(x) for x in results])


@router.get("", response_model=b.DocumentsResponse)
async def documents(service: Services, token: Token, scope: ScopeQuery) -> b.DocumentsResponse:
    """The documents stored in a scope."""
    target = service.scope(token, scope, Right.READ)
    stored = await service.guard.run(target.documents)
    return b.DocumentsResponse(documents=[s.document_shape(d) for d in stored])


@router.get("/chunks", response_model=b.ChunksResponse)
async def chunks(
    service: Services,
    token: Token,
    scope: ScopeQuery,
    document: Annotated[str, Query(min_length=1, description="A document's id or name.")],
    chunk: Annotated[str | None, Query(description="Only this chunk (by its id).")] = None,
) -> b.ChunksResponse:
    """A document's chunks with their byte spans, pages and exact stored text, in order (or
    the one named by `chunk`): where a citation's bytes are read back and shown in their
    passage."""
    target = service.scope(token, scope, Right.READ)

    def read() -> tuple[Document, list[Chunk]]:
        found = target.document(document)
        stored = [c for c in target.chunks(found.id) if chunk is None or c.id == chunk]
        if chunk is not None and not stored:
            raise DocumentNotFound(f"no chunk {chunk!r} in document {document!r}")
        return found, stored

    found, stored = await service.guard.run(read)
    return b.ChunksResponse(
        document=s.document_shape(found), chunks=[s.chunk_shape(c) for c in stored]
    )


# `:path`: a name may hold "/" (every file ingested from a folder does), sent URL-encoded.
@router.delete("/{document:path}", response_model=b.DeletedResponse)
async def delete(
    service: Services, token: Token, document: str, scope: ScopeQuery
) -> b.DeletedResponse:
    """Delete a document (by id or name) and everything that hangs off it."""
    target = service.scope(token, scope, Right.WRITE)
    removed = await service.guard.run(lambda: target.delete_document(document))
    return b.DeletedResponse(deleted=s.document_shape(removed))
