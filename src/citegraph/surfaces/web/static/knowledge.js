// The knowledge browser (documents, chunks, relations, identities, the edge audit) and the
// health console.
import { api, bytesLabel, el, failure, scope } from "./common.js";
import { auditSection } from "./impact.js";

function identitiesSection() {
  const name = el("input", { id: "identities-name", required: true });
  const out = el("div", { id: "identities", "aria-live": "polite" });
  const form = el("form", { onsubmit: async (event) => {
    event.preventDefault();
    try {
      const data = await api("GET", `/v1/memory/entities?${new URLSearchParams({ scope: scope(), name: name.value })}`);
      if (!data.identities.length) {
        out.replaceChildren(el("p", {}, `No entity named "${data.name}" is stored.`));
        return;
      }
      out.replaceChildren(el("p", {}, data.identities.length > 1
        ? `"${data.name}" means ${data.identities.length} entities: kept apart, never merged on spelling.`
        : `"${data.name}" means one entity.`),
      el("div", { class: "candidates" }, data.identities.map((e) => el("section", { class: "candidate", "data-key": e.key },
        el("h4", {}, `${e.name} (${e.type})`), el("p", {}, `key ${e.key}; ${e.mentions} mention(s)`),
        e.aliases.length > 1 ? el("p", {}, `also written: ${e.aliases.join(", ")}`) : null))));
    } catch (error) {
      out.replaceChildren(failure(error));
    }
  } }, el("label", { for: "identities-name" }, "Name"), name, el("button", { type: "submit" }, "Show identities"));
  return [el("h3", {}, "Entities"), form, out];
}

// -- Knowledge browser ------------------------------------------------------------------------

export function knowledgeScreen(main) {
  const docs = el("div", {});
  const chunks = el("div", { "aria-live": "polite" });
  const entity = el("input", { id: "relations-entity" });
  const relations = el("div", { id: "relations", "aria-live": "polite" });
  main.append(el("h2", {}, "Knowledge"), el("h3", {}, "Documents"), docs, chunks,
    el("h3", {}, "Relations"),
    el("form", { onsubmit: async (event) => {
      event.preventDefault();
      try {
        const query = new URLSearchParams({ scope: scope() });
        if (entity.value) query.set("entity", entity.value);
        const data = await api("GET", `/v1/memory/relations?${query}`);
        relations.replaceChildren(el("table", {}, el("caption", {}, `${data.relations.length} relation(s)`),
          el("thead", {}, el("tr", {}, ["source", "relation", "target", "polarity", "modality", "quote", "the model's words (not a citation)"].map((h) => el("th", { scope: "col" }, h)))),
          el("tbody", {}, data.relations.map((r) => el("tr", {}, el("td", {}, r.source), el("td", {}, r.type), el("td", {}, r.target),
            el("td", {}, r.polarity || ""), el("td", {}, r.modality || ""), el("td", { class: "excerpt" }, r.quote || ""), el("td", { class: "model-words" }, r.description || ""))))));
      } catch (error) {
        relations.replaceChildren(failure(error));
      }
    } }, el("label", { for: "relations-entity" }, "Entity (empty: all)"), entity, el("button", { type: "submit" }, "List")),
    relations,
    ...identitiesSection(),
    ...auditSection());
  api("GET", `/v1/documents?${new URLSearchParams({ scope: scope() })}`).then((data) => {
    docs.replaceChildren(el("table", {}, el("caption", {}, `${data.documents.length} document(s)`),
      el("thead", {}, el("tr", {}, ["name", "chunks", "pages", "bytes", ""].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, data.documents.map((d) => el("tr", {}, el("td", {}, d.name), el("td", {}, String(d.chunkCount)),
        el("td", {}, String(d.pageCount || "")), el("td", {}, String(d.sizeBytes)),
        el("td", {}, el("button", { type: "button", onclick: () => showChunks(chunks, d) }, `Chunks of ${d.name}`)))))));
  }).catch((error) => docs.replaceChildren(failure(error)));
}

async function showChunks(target, doc) {
  try {
    const data = await api("GET", `/v1/documents/chunks?${new URLSearchParams({ scope: scope(), document: doc.id })}`);
    target.replaceChildren(el("h4", {}, doc.name), el("ol", { class: "chunks" }, data.chunks.map((c) =>
      el("li", {}, el("p", { class: "muted" }, `${bytesLabel(c)}${c.furniture ? " (page furniture: never evidence)" : ""}`), el("pre", {}, c.text)))));
  } catch (error) {
    target.replaceChildren(failure(error));
  }
}

// -- Health console ---------------------------------------------------------------------------

export function healthScreen(main) {
  const out = el("div", { "aria-live": "polite" });
  const indexes = el("div", { id: "indexes" });
  async function refreshIndexes() {
    try {
      const data = await api("GET", `/v1/health/indexes?${new URLSearchParams({ scope: scope() })}`);
      indexes.replaceChildren(el("table", {}, el("caption", {}, `Indexes of scope ${scope()}`),
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "index"), el("th", { scope: "col" }, "state"))),
        el("tbody", {}, data.indexes.map((i) => el("tr", {}, el("td", {}, i.index), el("td", {}, i.state))))));
    } catch (error) {
      indexes.replaceChildren(el("p", {}, `Indexes of scope ${scope()}: `, failure(error)));
    }
  }
  async function refresh() {
    refreshIndexes();
    try {
      const h = await api("GET", "/v1/health");
      const storage = h.storage;
      out.replaceChildren(
        el("dl", { class: "health" },
          el("dt", {}, "API"), el("dd", { "data-testid": "api-state" }, h.api),
          el("dt", {}, "Graph store"), el("dd", { "data-testid": "graph-state", class: `state-${h.graph.state}` }, `${h.graph.state}${h.graph.detail ? ": " + h.graph.detail : ""}`),
          storage ? [el("dt", {}, "Stored size"), el("dd", {}, `${storage.storedBytes} bytes (${storage.tailBytes} in the append-only tail)`),
            el("dt", {}, "Last compaction"), el("dd", {}, storage.lastCompaction ? new Date(storage.lastCompaction * 1000).toISOString() : "never")] : null,
          el("dt", {}, "Housekeeping failures"), el("dd", {}, String(h.housekeepingFailures))),
        indexes,
        el("p", { class: "muted" }, `Checked ${new Date().toLocaleTimeString()}; every 3 seconds while this screen is open.`));
    } catch (error) {
      out.replaceChildren(el("dl", { class: "health" }, el("dt", {}, "API"), el("dd", { "data-testid": "api-state" }, `unreachable: ${error.message}`)));
    }
  }
  main.append(el("h2", {}, "Health"), out);
  refresh();
  return setInterval(refresh, 3000);
}

