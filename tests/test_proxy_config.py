"""A reverse proxy's configuration (extract/proxy_config.py), joined to the compose service
that runs it (extract/settings_links.py)."""

from __future__ import annotations

from pathlib import Path

from citegraph import Scope

NGINX = b"""upstream web_upstream {
    server frontend:3000;
}

server {
    listen 80;
    location / {
        proxy_pass http://web_upstream;
    }
    location /static {
        proxy_pass http://web_upstream/static;
    }
    location /api {
        proxy_pass http://public-api:8080/;
    }
    # location /old {
    #     proxy_pass http://legacy-api:8080;
    # }
    location /dynamic {
        proxy_pass http://$backend;
    }
    location /self {
        proxy_pass http://127.0.0.1:9000;
    }
}
"""

COMPOSE = b"""services:
  proxy:
    image: nginx:alpine
    volumes:
      - ./nginx/default.conf:/etc/nginx/conf.d/default.conf:ro
  store-front:
    build: src/store-front
  store-admin:
    build:
      context: ./src/store-admin
  public-api:
    image: example/public-api
"""

FRONT = b"""server {
    location /api/orders {
        proxy_pass http://order-service:3000;
    }
}
"""

ADMIN = b"""server {
    location /api/makeline {
        grpc_pass grpc://makeline-service:3001;
    }
}
"""


def _files(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


def _calls(scope: Scope) -> set[tuple[str, str, str]]:
    return {(r.source, r.type, r.target) for r in scope.relations() if r.type == "calls"}


def test_a_mounted_or_built_proxy_configuration_calls_what_it_passes_to(
    scope: Scope, tmp_path: Path
) -> None:
    """A compose service that mounts an nginx file, or is built from the folder holding one,
    calls each host its pass directives name (an upstream block's servers too), quoted in the
    file; a commented directive, a variable and the machine itself name none."""
    shop = _files(
        tmp_path / "shop",
        {
            "docker-compose.yml": COMPOSE,
            "nginx/default.conf": NGINX,
            "src/store-front/nginx.conf": FRONT,
            "src/store-admin/nginx.conf": ADMIN,
        },
    )
    scope.ingest(shop)
    assert _calls(scope) == {
        ("proxy", "calls", "frontend"),
        ("proxy", "calls", "public-api"),
        ("store-front", "calls", "order-service"),
        ("store-admin", "calls", "makeline-service"),
    }
    quotes = {r.target: r.quote for r in scope.relations() if r.type == "calls"}
    assert quotes["frontend"] == "upstream web_upstream {\n    server frontend:3000;"
    assert quotes["public-api"] == "proxy_pass http://public-api:8080/;"
    for r in scope.relations():
        if r.type == "calls":
            assert r.document_id and r.start_byte is not None and r.end_byte is not None
            stored = scope.stored_text(r.document_id)
            assert stored[r.start_byte : r.end_byte].decode() == r.quote
    (conf,) = [d for d in scope.documents() if d.name == "shop/nginx/default.conf"]
    assert conf.media_type == "text/x-conf"


def test_a_proxy_configuration_is_linked_in_either_order_and_unlinked_when_deleted(
    scope: Scope,
) -> None:
    """The configuration stored before or after the compose file that runs it gives the same
    calls; one no service runs gives none; deleting it takes its calls along."""
    scope.ingest(FRONT, name="shop/src/store-front/nginx.conf")
    scope.ingest(FRONT, name="other/nginx.conf")  # run by nobody stored
    assert _calls(scope) == set()
    scope.ingest(COMPOSE, name="shop/docker-compose.yml")
    assert _calls(scope) == {("store-front", "calls", "order-service")}
    scope.delete_document("shop/src/store-front/nginx.conf")
    assert _calls(scope) == set()


PROXY_MAP = b"""apiVersion: v1
kind: ConfigMap
metadata:
  name: nginx-config
data:
  API_URL: http://ignored-api:8080
  default.conf: |
    upstream web_upstream {
      server frontend:3000;
    }
    server {
      location / {
        proxy_pass http://web_upstream;
      }
      location /api {
        proxy_pass http://public-api:8080;
      }
    }
"""

PROXY_DEPLOYMENT = b"""apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
spec:
  template:
    spec:
      containers:
        - name: nginx
          image: nginx:alpine
          volumeMounts:
            - name: config
              mountPath: /etc/nginx/conf.d
      volumes:
        - name: config
          configMap:
            name: nginx-config
"""


def test_a_workload_mounting_a_configmap_that_holds_an_nginx_file_calls_its_hosts(
    scope: Scope,
) -> None:
    """A ConfigMap holding an nginx file, mounted as a volume by a workload of the same file
    or of another, makes the workload call the hosts the file passes to, quoted in the map's
    value; the map's other entries, mounted as files, are no settings of the workload."""
    scope.ingest(PROXY_MAP + b"---\n" + PROXY_DEPLOYMENT, name="one/nginx.yaml")
    expected = {("nginx", "calls", "frontend"), ("nginx", "calls", "public-api")}
    assert _calls(scope) == expected
    quotes = {r.quote for r in scope.relations() if r.type == "calls"}
    assert "proxy_pass http://public-api:8080;" in quotes
    assert "upstream web_upstream {\n      server frontend:3000;" in quotes
    for r in scope.relations():
        if r.type == "calls":
            assert r.document_id and r.start_byte is not None and r.end_byte is not None
            assert scope.stored_text(r.document_id)[r.start_byte : r.end_byte].decode() == r.quote
    scope.delete_document("one/nginx.yaml")
    scope.ingest(PROXY_MAP, name="two/config.yaml")
    scope.ingest(PROXY_DEPLOYMENT, name="two/deployment.yaml")
    assert _calls(scope) == expected
