"""Negation and modality: a relation stated in a negated, hypothetical or planned sentence is
never an affirmed, actual dependency; one stated plainly always is (issue 13). The sentences
were written for this test: engineering prose with the cues of the table, alone and mixed."""

from __future__ import annotations

import pytest

from citegraph import Scope
from citegraph.extract.modality import Modality, Polarity, assess

A, N = Polarity.AFFIRMED, Polarity.NEGATED
ACT, HYP, PLAN = Modality.ACTUAL, Modality.HYPOTHETICAL, Modality.PLANNED

# (sentence, source, target, polarity, modality)
SENTENCES = [
    ("The checkout service calls the payment service.", "checkout service", "payment service", A, ACT),
    ("Checkout reads prices from the pricing service.", "Checkout", "pricing service", A, ACT),
    ("The cart service stores baskets in Redis.", "cart service", "Redis", A, ACT),
    ("Frontend talks to the ad service over gRPC.", "Frontend", "ad service", A, ACT),
    ("The email service sends receipts through SendGrid.", "email service", "SendGrid", A, ACT),
    ("Orders are written to Postgres by the order service.", "Postgres", "order service", A, ACT),
    ("The recommendation service depends on the catalog service for product data.", "recommendation service", "catalog service", A, ACT),
    ("Notification service publishes events to Kafka.", "Notification service", "Kafka", A, ACT),
    ("The cart service does not call the payment service.", "cart service", "payment service", N, ACT),
    ("The cart service no longer calls Redis.", "cart service", "Redis", N, ACT),
    ("Checkout never writes to the inventory database.", "Checkout", "inventory database", N, ACT),
    ("The shipping service runs without the currency service.", "shipping service", "currency service", N, ACT),
    ("Frontend doesn't talk to Postgres directly.", "Frontend", "Postgres", N, ACT),
    ("No service reads from the legacy queue.", "service", "legacy queue", N, ACT),
    ("Neither checkout nor cart calls the fraud service.", "checkout", "fraud service", N, ACT),
    ("The ad service uses Memcached instead of Redis.", "ad service", "Redis", N, ACT),
    ("The search service cannot reach the index service.", "search service", "index service", N, ACT),
    ("If the cache is down, checkout calls the pricing service directly.", "checkout", "pricing service", A, HYP),
    ("When `MCP_ENABLED` is `false`, the agent uses the built-in tools.", "agent", "built-in tools", A, HYP),
    ("When caching is enabled, the Cart Service writes to Redis.", "Cart Service", "Redis", A, HYP),
    ("Once FRAUD_CHECKS is set to true, Checkout calls the Fraud Service.", "Checkout", "Fraud Service", A, HYP),
    ("When a request arrives, the Frontend calls the Cart Service.", "Frontend", "Cart Service", A, ACT),
    ("The Cart Service writes to Redis when caching is enabled.", "Cart Service", "Redis", A, HYP),
    ("Checkout calls the Fraud Service once `FRAUD_CHECKS` is `true`.", "Checkout", "Fraud Service", A, HYP),
    ("However, when `--query.engine=thanos` is specified, the Querier will use the Thanos Engine.", "Querier", "Thanos Engine", A, HYP),
    ("The Frontend calls the Cart Service when a user adds an item.", "Frontend", "Cart Service", A, ACT),
    ("The Frontend calls the Cart Service; when caching is enabled, Redis keeps the carts.", "Frontend", "Cart Service", A, ACT),
    ("The frontend may call the recommendation service for extra items.", "frontend", "recommendation service", A, HYP),
    ("Checkout might fall back to the backup gateway.", "Checkout", "backup gateway", A, HYP),
    ("The cart could read from the replica database.", "cart", "replica database", A, HYP),
    ("Unless the quota is exceeded, the ad service calls the bidding service.", "ad service", "bidding service", A, HYP),
    ("The order service would write to Kafka in that design.", "order service", "Kafka", A, HYP),
    ("Checkout will call the tax service next year.", "Checkout", "tax service", A, PLAN),
    ("The cart service is planned to use DynamoDB.", "cart service", "DynamoDB", A, PLAN),
    ("A proposed change routes the frontend through the edge proxy.", "frontend", "edge proxy", A, PLAN),
    ("The deprecated billing service still calls the ledger service.", "billing service", "ledger service", A, PLAN),
    ("The team is going to move the catalog service onto Spanner.", "catalog service", "Spanner", A, PLAN),
    # Mixed: a cue in one clause leaves the other clause alone.
    ("The cart service no longer calls Redis; it calls Memorystore.", "cart service", "Memorystore", A, ACT),
    ("Checkout does not retry, and calls the payment service once.", "Checkout", "payment service", A, ACT),
    ("The frontend calls the currency service, but it will not call the tax service.", "frontend", "currency service", A, ACT),
    ("The frontend calls the currency service, but it will not call the tax service after the next release.", "it", "tax service", N, PLAN),
    # "will" alone is how docs describe what a system does
    ("The Proxy will retry and then forward the request to the Ledger Service.", "Proxy", "Ledger Service", A, ACT),
    ("Payments go to Stripe; a move to Adyen is proposed.", "Payments", "Stripe", A, ACT),
    ("The notification service calls the user service.", "notification service", "user service", A, ACT),
    # A negation of an auxiliary ends before a predicate coordinated in the third person; an
    # adverb's covers it; a list after the negated verb stays negated.
    ("The billing service does not call the ledger service and uses the audit service.", "billing service", "audit service", A, ACT),
    ("The billing service does not call the ledger service and uses the audit service.", "billing service", "ledger service", N, ACT),
    ("The cache service has no database and calls the config service.", "cache service", "config service", A, ACT),
    ("The worker never reads from the queue and writes to the outbox.", "worker", "outbox", N, ACT),
    ("The gateway does not call the auth service and the user service.", "gateway", "user service", N, ACT),
    ("The gateway doesn't call the auth service and also calls the user service.", "gateway", "user service", A, ACT),
    # Words of a cue that say something else: "not only", "nothing but", "no doubt".
    ("The frontend not only calls the cart service but also uses Redis.", "frontend", "cart service", A, ACT),
    ("The report service uses nothing but the warehouse database.", "report service", "warehouse database", A, ACT),
    ("No doubt the search service queries the index service on every request.", "search service", "index service", A, ACT),
    ("The search service does not necessarily query the index service.", "search service", "index service", N, ACT),
    ("Since May 2021 the frontend calls the cart service.", "frontend", "cart service", A, ACT),
    ("The frontend may call the cart service in May 2021.", "frontend", "cart service", A, HYP),
    # A condition after what it conditions covers its clause; "check if" asks, "even if"
    # concedes, and a condition in the next sentence is that sentence's.
    ("The cart service writes to the orders database unless caching is disabled.", "cart service", "orders database", A, HYP),
    ("Checkout calls the fraud service only if the order exceeds the limit.", "Checkout", "fraud service", A, HYP),
    ("The gateway uses Redis as long as the cluster is healthy.", "gateway", "Redis", A, HYP),
    ("The ledger service reads from the replica, provided that it is in sync.", "ledger service", "replica", A, HYP),
    ("The frontend calls the inventory service to check if the item is in stock.", "frontend", "inventory service", A, ACT),
    ("The worker calls the payment service even if the cache holds the price.", "worker", "payment service", A, ACT),
    ("The search service calls the index service. If the index is stale, it is rebuilt.", "search service", "index service", A, ACT),
    ("The frontend reads from the cache service and, if that fails, from the catalog service.", "frontend", "cache service", A, ACT),
    # A condition in a clause of its own after the relation ("while", "which") is that clause's.
    ("The order service uses Redis while the other services use Postgres if a record arrives.", "order service", "Redis", A, ACT),
    ("The checkout service calls the payment service, which retries if the call fails.", "checkout service", "payment service", A, ACT),
    ("The frontend calls the cart service only when the flag is on.", "frontend", "cart service", A, HYP),
    ("We are considering having the cart service call the payment service.", "cart service", "payment service", A, PLAN),
    ("The billing service intends to use Stripe for refunds.", "billing service", "Stripe", A, PLAN),
    # What held once and holds no more; what is excluded; what is optional or recommended.
    ("The cart service formerly called the payment service.", "cart service", "payment service", N, ACT),
    ("The cart service used to write to MongoDB.", "cart service", "MongoDB", N, ACT),
    ("Kafka is used to send events to the analytics service.", "Kafka", "analytics service", A, ACT),
    ("The gateway calls the ad service rather than the payment service.", "gateway", "payment service", N, ACT),
    ("The gateway calls the ad service rather than the payment service.", "gateway", "ad service", A, ACT),
    ("The report job reads every table except the audit table.", "report job", "audit table", N, ACT),
    ("Optionally, the frontend calls the recommendation service.", "frontend", "recommendation service", A, HYP),
    ("The Metrics Generator (optional) reads spans from Kafka.", "Metrics Generator", "Kafka", A, HYP),
    ("The Querier keeps results in an optional Redis cache.", "Querier", "Redis", A, HYP),
    ("We recommend that the worker reads from the replica.", "worker", "replica", A, HYP),
    ("Eventually the search service will query OpenSearch.", "search service", "OpenSearch", A, PLAN),
    ("In a future release the frontend calls the chat service.", "frontend", "chat service", A, PLAN),
    # Hedges, inability, schedules.
    ("It is possible that the order service calls the payment service.", "order service", "payment service", A, HYP),
    ("The order service probably calls the payment service.", "order service", "payment service", A, HYP),
    ("The order service seems to depend on Kafka.", "order service", "Kafka", A, HYP),
    ("The cart service is unable to reach the payment service.", "cart service", "payment service", N, ACT),
    ("The report service is scheduled to use Redis next month.", "report service", "Redis", A, PLAN),
    # A goal, not a fact; a condition whose code holds a dot; a setting left unsaid.
    ("Follow these steps to ensure that the Cart Service can reach Redis.", "Cart Service", "Redis", A, HYP),
    ("To avoid delays and make sure the Frontend uses the Cache Service, set the flag.", "Frontend", "Cache Service", A, HYP),
    ("If you have set `-ruler.frontend-address`, then the Ruler queries the Query Frontend.", "Ruler", "Query Frontend", A, HYP),
    ("It changes one thing: when enabled on a dual-stack cluster, the Proxy uses the Identity Service.", "Proxy", "Identity Service", A, HYP),
    ("When enabled, the Proxy calls the Identity Service.", "Proxy", "Identity Service", A, HYP),
    ("The Proxy calls the Identity Service when it starts.", "Proxy", "Identity Service", A, ACT),
    # A negation before a relative clause is not the clause's.
    ("The Gateway has not been tested with the Workers that call the Ledger Service.", "Workers", "Ledger Service", A, ACT),
    # What something is "only available when" it holds is a condition; a plain "when", a time.
    ("The setting is only available when the Registry relies on the Auth Proxy.", "Registry", "Auth Proxy", A, HYP),
    ("When the Frontend calls the Cart Service, the basket is locked.", "Frontend", "Cart Service", A, ACT),
    # What a component can do is an option or a capability, not what it does.
    ("The Artifact Service can use the Blob Store for large files.", "Artifact Service", "Blob Store", A, HYP),
    ("The Indexer can also flush chunks to disk when the Ledger uses the Blob Store.", "Ledger", "Blob Store", A, HYP),
    # A time's colons end no clause: the condition covers what follows its comma.
    ("If you query data written between 00:00:00 and 01:00:00 UTC, the Querier reads from the Archive Store.", "Querier", "Archive Store", A, HYP),
    # What the reader is to set up is a prerequisite.
    ("You’ll need the Deploy Tool configured to interact with your Cluster API.", "Deploy Tool", "Cluster API", A, HYP),
    # A purpose opening the sentence is a goal; what follows its comma is said as a fact.
    ("To have the Proxy use the certificates made by the Cert Manager, add this file.", "Proxy", "Cert Manager", A, HYP),
    ("To route traffic between clusters, the Gateway uses the Mirror Service.", "Gateway", "Mirror Service", A, ACT),
    # "Eventually" orders the steps of what happens; what "will eventually" happen is a plan.
    ("The Tablets eventually run the query on the Primary Database.", "Tablets", "Primary Database", A, ACT),
    ("The Billing Service will eventually use the Ledger Store.", "Billing Service", "Ledger Store", A, PLAN),
    # A dot inside a name ends no clause (MongoDB's "Made collection.count not use the
    # db.command function" read as affirmed).
    ("The Order Service does not call the payments.api service.", "Order Service", "payments.api", N, ACT),
    # An instruction to the reader opening the sentence says what is to be made, not what is
    # (held-out, Rook: "Create a StorageClass that uses the NVMe-oF CSI driver.").
    ("Create a Storage Class that uses the Block Driver.", "Storage Class", "Block Driver", A, HYP),
    ("- Set a default Snapshot Class that uses the same Volume Driver.", "Snapshot Class", "Volume Driver", A, HYP),
    ("Deploy the app first; the Billing Service calls the Ledger Service.", "Billing Service", "Ledger Service", A, ACT),
    ("Use cases differ: the Billing Service calls the Ledger Service.", "Billing Service", "Ledger Service", A, ACT),
    ("Next, create a Backup Location that uses the Cloud Secret.", "Backup Location", "Cloud Secret", A, HYP),
    # A modal's or a negation's scope ends at a reason given in a clause of its own (held-out,
    # Velero: "should be used in preference since the File System Backup reads data from the
    # live PV"); a condition's does not.
    ("The Frontend should prefer the Cache Service since the Catalog Service reads from the Archive Store.", "Catalog Service", "Archive Store", A, ACT),
    ("The Frontend does not use Redis because the Cart Service writes to Valkey.", "Cart Service", "Valkey", A, ACT),
    ("If the cache is down because of load, checkout calls the pricing service directly.", "checkout", "pricing service", A, HYP),
    # ... and at a clause of its own after ", and" (held-out, cert-manager: "It is not
    # possible to create resources in the `kube-system` namespace, and cert-manager uses the
    # well-known `kube-system`"); a predicate coordinated after it is still the modal's.
    ("It is not possible to edit the cache, and the Billing Service uses the Ledger Service.", "Billing Service", "Ledger Service", A, ACT),
    ("The Frontend may restart, and the Cart Service reads from the Archive Store.", "Cart Service", "Archive Store", A, ACT),
    ("The Cart Service can restart, and read from the Archive Store.", "Cart Service", "Archive Store", A, HYP),
    ("If the cache is cold, and the Cart Service reads from the Archive Store, checkout waits.", "Cart Service", "Archive Store", A, HYP),
    # A negation's scope ends at a dash (held-out, Kyverno: "No additional policy
    # configuration is required — Kyverno reads `spec.imagePullSecrets`").
    ("No extra setting is required — the Cart Service reads from the Archive Store.", "Cart Service", "Archive Store", A, ACT),
    # Telling a component what to do (held-out, external-dns: "describes how to configure
    # ExternalDNS to use the Contour HTTPProxy source"): the component does it; an instruction,
    # a procedure ("how to") or a purpose is hypothetical, a file's doing is actual.
    ("Configure the Billing Service to call the Ledger Service.", "Billing Service", "Ledger Service", A, HYP),
    ("To configure the Node.js Agent to send data to the Ledger Service, set its address.", "Node.js Agent", "Ledger Service", A, HYP),
    ("This guide describes how to configure the Billing Service to use the Ledger Service.", "Billing Service", "Ledger Service", A, HYP),
    ("The config file configures the Billing Service to use the Ledger Service.", "Billing Service", "Ledger Service", A, ACT),
    ("Let's create an account to allow the Billing Service to call the Ledger Service.", "Billing Service", "Ledger Service", A, HYP),
    ("Let's explore how the Billing Service reads from the Ledger Service.", "Billing Service", "Ledger Service", A, ACT),
]  # fmt: skip


def _ends(sentence: str, source: str, target: str) -> tuple[tuple[int, int], ...]:
    s = sentence.index(source)
    t = (
        sentence.index(target, s + len(source))
        if target in sentence[s + len(source) :]
        else sentence.index(target)
    )
    return ((s, s + len(source)), (t, t + len(target)))


def test_the_fixture_is_large_enough() -> None:
    assert len(SENTENCES) >= 30
    kinds = {(p, m) for *_, p, m in SENTENCES}
    assert {(A, ACT), (N, ACT), (A, HYP), (A, PLAN), (N, PLAN)} <= kinds


@pytest.mark.parametrize(("sentence", "source", "target", "polarity", "modality"), SENTENCES)
def test_each_sentence(
    sentence: str, source: str, target: str, polarity: Polarity, modality: Modality
) -> None:
    assert assess(sentence, _ends(sentence, source, target)) == (polarity, modality)


def test_no_affirmed_actual_relation_from_a_negated_or_hypothetical_sentence() -> None:
    for sentence, source, target, polarity, modality in SENTENCES:
        found = assess(sentence, _ends(sentence, source, target))
        plain = (polarity, modality) == (A, ACT)
        assert (found == (A, ACT)) == plain, sentence


def test_the_offline_reader_reads_the_fixture_as_the_cues_say(scope: Scope) -> None:
    """End to end: the fixture as one document, read by the offline extractor. Every
    relation it finds between a sentence's two ends has that sentence's polarity and
    modality; none from a negated, hypothetical or planned sentence is affirmed and actual.
    It does not find them all: a bare lowercase word ("the gateway", "the worker") is no name
    offline unless the document writes it in capitals somewhere (docs/extraction.md), so
    those sentences state nothing to it."""
    scope.ingest("\n\n".join(s for s, *_ in SENTENCES).encode(), name="cues.md")
    read: dict[tuple[str, str, str], tuple[str | None, str | None]] = {}
    for r in scope.relations():
        if not r.weak and r.quote is not None:
            read[(r.quote, r.source.lower(), r.target.lower())] = (r.polarity, r.modality)
    found = 0
    for sentence, source, target, polarity, modality in SENTENCES:
        ends = {
            (sentence, source.lower(), target.lower()),
            (sentence, target.lower(), source.lower()),
        }
        said = [read[k] for k in ends if k in read]
        if said:
            found += 1
            assert said == [(polarity.value, modality.value)], sentence
    # measured on 2026-12-04: 55 of 83 (19 of 72 before four sentences naming Checkout, the
    # Frontend and the Cart Service in capitals made those names known in the others too; 33
    # of 80 before a name found in one chunk was known in the document's later chunks; 42
    # before "X is planned to use Y" had a subject and "the deprecated billing service" was
    # the billing service; 50 after a component phrase opening a sentence was named whole,
    # 52 after a carried name opening a later chunk's sentence was still that name; the
    # fixture's two sentences on a later clause's condition are both found, and its one on
    # a setting after a connective; 56 of 85 once "optional" was a cue and the fixture had
    # two sentences with it; 61 of 91 with six sentences on goals, code in a condition and a
    # setting left unsaid; 62 of 92 with one on a relative clause after a negation; 65 of 94
    # on 2026-12-04's seventh session, with two on "only available when" and a plain "when";
    # 66 of 95 with one on what the reader will need set up; 68 of 97 with two on "can";
    # 68 of 98 once "will" alone was no cue; 69 of 99 with one on a time's colons; 70 of 101
    # on 2026-12-05 with two on a purpose opening the sentence; 72 of 103 with two on
    # "eventually"; 73 of 104 with one on a dot inside a name; 76 of 108 with four on an
    # instruction opening the sentence; 79 of 111 with three on a reason's clause; 80 of 112
    # with one on an instruction after "Next,"; 83 of 116 with four on a clause of its own
    # after ", and"; 84 of 117 with one on a dash; 90 of 123 with six on telling a
    # component what to do and on "let's")
    assert found >= 90, found


def test_a_section_under_a_heading_of_plans_is_planned(scope: Scope) -> None:
    """ "Proposed features for future releases" over "learner only receives data from
    leader" (held out, etcd's design notes, a setext heading): what the section states is
    planned; the section after the next heading is not; a hypothetical stays so."""
    scope.ingest(
        b"# Ledger\n\nThe Ledger Service writes to the Archive Store.\n\n"
        b"Proposed features for future releases\n--------------------------------------\n\n"
        b"The Ledger Service reads from the Replica Store.\n\n"
        b"The Ledger Service may call the Audit Service.\n\n"
        b"## Roadmap\n\n| Service | Publishes to |\n|---|---|\n| Ledger Service | Kafka |\n\n"
        b"## Today\n\nThe Ledger Service calls the Price Service.\n",
        name="design.md",
    )
    read = {(r.source, r.target): r.modality for r in scope.relations() if not r.weak}
    assert read == {
        ("Ledger Service", "Archive Store"): "actual",
        ("Ledger Service", "Replica Store"): "planned",
        ("Ledger Service", "Audit Service"): "hypothetical",
        ("Ledger Service", "Kafka"): "planned",
        ("Ledger Service", "Price Service"): "actual",
    }


def test_a_planned_section_goes_on_into_the_next_chunks(scope: Scope) -> None:
    """The heading of plans is read in an earlier chunk than the statement under it."""
    filler = b"The archive keeps every ledger of the harbour since 1821, twice over. " * 60
    scope.ingest(
        b"## Roadmap\n\n" + filler + b"\n\nThe Ledger Service reads from the Replica Store.\n\n"
        b"## Today\n\n" + filler + b"\n\nThe Ledger Service calls the Price Service.\n",
        name="roadmap.md",
    )
    chunks = list(scope.chunks(next(iter(scope.documents())).id))
    assert len(chunks) > 2  # (the headings and the statements in different chunks)
    read = {(r.source, r.target): r.modality for r in scope.relations() if not r.weak}
    assert read == {
        ("Ledger Service", "Replica Store"): "planned",
        ("Ledger Service", "Price Service"): "actual",
    }
