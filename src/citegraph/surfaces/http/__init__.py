"""The HTTP service (`citegraph serve`): FastAPI routes over the workspace, bearer tokens."""

from ...service.tokens import Right, TokenFile, TokenRecord
from .app import create_app

__all__ = ["Right", "TokenFile", "TokenRecord", "create_app"]
