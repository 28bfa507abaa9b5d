"""Dapr components (extract/dapr.py) and address settings named in camel case."""

from __future__ import annotations

from citegraph import Scope

STATE_STORE = b"""apiVersion: dapr.io/v1alpha1
kind: Component
metadata:
  name: orders.state
  namespace: shop
spec:
  type: state.redis
  version: v1
  metadata:
    - name: redisHost
      value: orders-cache.redis:6379
    - name: redisPassword
      secretKeyRef:
        name: redis-password
        key: redis-password
scopes:
  - order-service
  - "make-line-service"
auth:
  secretStore: shop-secrets
"""

DEPLOYMENT = b"""apiVersion: apps/v1
kind: Deployment
metadata:
  name: basket
spec:
  template:
    metadata:
      annotations:
        dapr.io/enabled: "true"
        dapr.io/app-id: "basket-api"
        dapr.io/config: "tracing-config"
    spec:
      containers:
        - name: basket-api
          image: shop/basket:1.0
"""

# Not a Dapr component: an OAuth client's scopes are permissions, not applications.
OAUTH_CLIENT = b"""apiVersion: auth.example.com/v1
kind: Component
metadata:
  name: portal-client
scopes:
  - read-orders
  - write-orders
"""


def _triples(scope: Scope) -> set[tuple[str, str, str]]:
    return {(r.source, r.type, r.target) for r in scope.relations() if not r.weak}


def test_a_components_scopes_use_it_and_its_camel_case_host_is_called(scope: Scope) -> None:
    """Each app a Dapr component's `scopes` name uses the component, quoted from the `scopes`
    key to its item, the component bound at its `metadata.name`; the component calls the host
    its `redisHost` entry names and uses the secret store its `auth` names; a workload uses
    the Dapr Configuration its `dapr.io/config` annotation names. Another API's `scopes` are
    none."""
    scope.ingest(STATE_STORE, name="components/orders-state.yaml")
    scope.ingest(OAUTH_CLIENT, name="auth/portal.yaml")
    scope.ingest(DEPLOYMENT, name="deploy/basket.yaml")
    assert _triples(scope) == {
        ("order-service", "uses", "orders.state"),
        ("make-line-service", "uses", "orders.state"),
        ("orders.state", "calls", "orders-cache"),
        ("orders.state", "uses", "shop-secrets"),
        ("basket", "uses", "tracing-config"),
    }
    for r in scope.relations():
        assert r.document_id and r.start_byte is not None and r.end_byte is not None
        stored = scope.stored_text(r.document_id)
        assert stored[r.start_byte : r.end_byte].decode() == r.quote
    uses = {r.source: r.quote for r in scope.relations() if r.type == "uses" and not r.weak}
    assert uses["order-service"] == "scopes:\n  - order-service"
    assert uses["make-line-service"].endswith('- "make-line-service"')


def test_address_settings_named_in_camel_case(scope: Scope) -> None:
    """A setting whose name ends in an address word after a word in lower case
    (`orderServiceUrl`, `PaymentHost`) states a call; a word that merely ends in the
    letters (`ghost`, `localhost`) names none."""
    settings = b"""apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
    - name: web
      env:
        - name: orderServiceUrl
          value: http://orders.shop.local/api
        - name: PaymentHost
          value: payments.shop.local
        - name: ghost
          value: spectre.shop.local
        - name: localhost
          value: loopback.shop.local
"""
    scope.ingest(settings, name="web.yaml")
    assert _triples(scope) == {("web", "calls", "orders"), ("web", "calls", "payments")}
