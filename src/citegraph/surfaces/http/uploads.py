"""The name an uploaded file is stored under: exactly the one its client sent.

The multipart parser keeps only the part after the last backslash of a file name that looks
like a Windows path (`C:\\...`, `\\\\server\\...`), a workaround for browsers that sent a full
path. citegraph stores names as given, so that `C:\\reports\\x.txt` never silently replaces an
`x.txt` already stored; the name is read again from the part's own header.
"""

from __future__ import annotations

import re

from starlette.datastructures import UploadFile

# The filename parameter of a Content-Disposition header: a quoted string (with backslash
# escapes for a quote or a backslash) or a bare token. `filename*=` is not this parameter.
_FILENAME = re.compile(r'(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))', re.I)


def _sent_name(disposition: str) -> str | None:
    match = _FILENAME.search(disposition)
    if match is None:
        return None
    if match.group(1) is None:
        return match.group(2)
    # The same unescaping as the parser's, so that only the cut differs.
    return match.group(1).replace("\\\\", "\\").replace('\\"', '"')


def upload_name(upload: UploadFile) -> str | None:
    """The file name as sent; the parser's, where the header cannot be read again."""
    parsed = upload.filename
    header = upload.headers.get("content-disposition")
    sent = _sent_name(header) if header else None
    # Only ever a longer form of the same name: the parser's name must be its last part.
    if parsed and sent and sent != parsed and sent.split("\\")[-1] == parsed:
        return sent
    return parsed
