"""The HTTP service (`citegraph serve`): FastAPI routes over the workspace, bearer tokens."""

from .app import create_app
from .tokens import Right, TokenFile, TokenRecord

__all__ = ["Right", "TokenFile", "TokenRecord", "create_app"]
