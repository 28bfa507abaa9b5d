import citegraph
import citegraph.errors


def test_all_lists_exactly_the_public_names() -> None:
    public = {name for name in dir(citegraph) if not name.startswith("_")}
    modules = {
        "config",
        "errors",
        "values",
        "workspace",
        "scope",
        "knowledge",
        "ingest",
        "store",
        "service",
        "testing",
        "limits",
        "surfaces",
        "text",
        "extract",
        "retrieve",
        "models",
        "answer",
        "audit",
        "paths",
        "evaluate",
        "graphq",
        "adopt",
    }
    assert set(citegraph.__all__) - {"__version__"} == public - modules
    for name in citegraph.__all__:
        assert hasattr(citegraph, name)


def test_the_http_package_exports_what_it_lists() -> None:
    import citegraph.surfaces.http as http

    public = {n for n in dir(http) if not n.startswith("_")}
    modules = {"answers", "app", "bodies", "deps", "documents", "guard", "health", "memory"}
    modules |= {"uploads", "graph", "audit"}
    assert set(http.__all__) == public - modules


def test_one_exception_tree() -> None:
    for name in citegraph.errors.__all__:
        error = getattr(citegraph.errors, name)
        assert issubclass(error, citegraph.CitegraphError)
    assert issubclass(citegraph.InvalidDocument, citegraph.UsageError)
    assert issubclass(citegraph.StoreUnavailable, citegraph.RuntimeFailure)
    assert not issubclass(citegraph.StoreUnavailable, citegraph.UsageError)


def test_version_is_the_installed_one() -> None:
    import tomllib
    from importlib.metadata import version

    from helpers import ROOT

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert citegraph.__version__ == version("citegraph") == declared
