// citegraph's web UI: the project's own code, no library. Every piece of stored text is put
// on the page as text (textContent), never as markup. The token lives in sessionStorage and
// goes in the Authorization header, never in a URL.
"use strict";

const session = window.sessionStorage;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function scope() {
  return session.getItem("citegraph.scope") || "default";
}

async function api(method, path, body) {
  const headers = { Authorization: "Bearer " + (session.getItem("citegraph.token") || "") };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  if (!response.ok && !(path === "/v1/health" && data)) {
    const error = new Error((data && data.error && data.error.message) || response.statusText);
    error.status = response.status;
    error.code = data && data.error && data.error.code;
    throw error;
  }
  return data;
}

function failure(error) {
  const code = error.code ? ` (${error.status} ${error.code})` : ` (${error.status || "network"})`;
  return el("p", { class: "error", role: "alert" }, `${error.message}${code}`);
}

function bytesLabel(c) {
  const page = c.page ? (c.endPage && c.endPage !== c.page ? `, pages ${c.page}-${c.endPage}` : `, page ${c.page}`) : "";
  return `bytes ${c.startByte}-${c.endByte}${page}`;
}

// -- a citation shown in its passage, the quoted bytes highlighted -------------------------

async function showPassage(target, citation, documentName) {
  target.replaceChildren(el("p", { role: "status" }, "Reading the passage..."));
  try {
    const query = new URLSearchParams({ scope: scope(), document: citation.documentId, chunk: citation.chunkId });
    const data = await api("GET", `/v1/documents/chunks?${query}`);
    const chunk = data.chunks[0];
    const raw = encoder.encode(chunk.text);
    const low = citation.startByte - chunk.startByte;
    const high = citation.endByte - chunk.startByte;
    const mark = el("mark", { "data-testid": "highlight" }, decoder.decode(raw.slice(low, high)));
    target.replaceChildren(
      el("figure", { class: "passage" },
        el("figcaption", {}, `${documentName || data.document.name}, ${bytesLabel(citation)} (passage ${bytesLabel(chunk)})`),
        el("pre", {}, decoder.decode(raw.slice(0, low)), mark, decoder.decode(raw.slice(high)))),
    );
    mark.scrollIntoView({ block: "nearest" });
  } catch (error) {
    target.replaceChildren(failure(error));
  }
}

// -- Ask --------------------------------------------------------------------------------------

const turns = [];

// POST /v1/answers/stream: server-sent events read from the response body (EventSource cannot
// send the token), each step handed to `onStep` as it comes, the answer returned at the end.
async function streamAnswer(body, onStep) {
  const response = await fetch("/v1/answers/stream", {
    method: "POST",
    headers: { Authorization: "Bearer " + (session.getItem("citegraph.token") || ""), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    let data = null;
    try { data = await response.json(); } catch (_) { data = null; }
    const error = new Error((data && data.error && data.error.message) || response.statusText);
    error.status = response.status;
    error.code = data && data.error && data.error.code;
    throw error;
  }
  const reader = response.body.getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const kind = (block.match(/^event: (.*)$/m) || [])[1];
      const data = JSON.parse((block.match(/^data: (.*)$/m) || [])[1] || "null");
      if (kind === "step") onStep(data);
      else if (kind === "answer") return data;
      else if (kind === "error") {
        const error = new Error(data.error.message);
        error.code = data.error.code;
        error.status = "stream";
        throw error;
      }
    }
    if (done) throw new Error("the answer's stream ended without an answer");
  }
}

function renderAnswer(answer, liveSteps) {
  const names = Object.fromEntries(answer.evidence.items.map((item) => [item.id, item.documentName]));
  const box = el("article", { class: "answer", "data-disposition": answer.disposition });
  box.append(el("h3", {}, answer.question));
  if (answer.rewrite && answer.rewrite.outcome !== "unchanged") {
    box.append(el("p", { class: "muted" }, `Asked as: ${answer.rewrite.question} (${answer.rewrite.outcome})`));
  }
  const passage = el("div", { class: "passage-slot", "aria-live": "polite" });
  if (answer.disposition === "refused") {
    const verdict = answer.evidence.verdict;
    box.append(el("p", { class: "refusal", role: "alert" }, `Refused (${answer.reason}): ${answer.detail}`));
    if (verdict.uncovered.length) box.append(el("p", {}, `Nothing stored covers: ${verdict.uncovered.join(", ")}`));
  } else {
    for (const claim of answer.claims) {
      const list = el("ul", { class: "citations" });
      for (const citation of claim.citations) {
        const name = names[citation.evidence] || citation.documentId;
        list.append(el("li", {}, el("button", {
          type: "button", class: "citation", "data-document-id": citation.documentId,
          "data-chunk-id": citation.chunkId, "data-start": citation.startByte, "data-end": citation.endByte,
          onclick: () => showPassage(passage, citation, name),
        }, `[${citation.evidence}] ${name}, ${bytesLabel(citation)}`)));
      }
      box.append(el("blockquote", {}, claim.text), list);
    }
  }
  const r = answer.receipt;
  const tokens = r.inputTokens === null ? "" : `, ${r.inputTokens} tokens in, ${r.outputTokens} out`;
  box.append(el("details", {}, el("summary", {}, "Steps and receipt"), liveSteps,
    el("p", { class: "receipt" }, `Receipt: ${r.answerer}, ${r.chatCalls} chat call(s)${tokens}; retrieval ${r.retrievalMs} ms, answer ${r.answerMs} ms`)));
  box.append(passage);
  return box;
}

function askScreen(main) {
  const question = el("textarea", { id: "question", rows: 2, required: true });
  const conversation = el("div", { id: "conversation", "aria-live": "polite" });
  const form = el("form", { class: "ask", onsubmit: async (event) => {
    event.preventDefault();
    const asked = question.value.trim();
    if (!asked) return;
    const steps = el("ol", { class: "steps", "aria-label": "Steps of the answer" });
    const waiting = el("div", { class: "waiting", "aria-live": "polite" },
      el("p", { role: "status" }, "Answering..."), steps);
    conversation.append(waiting);
    try {
      const answer = await streamAnswer({ scope: scope(), question: asked, history: turns.slice(-10) }, (step) => {
        steps.append(el("li", { "data-step": step.step }, `${step.step}: ${step.detail}`));
      });
      turns.push({ question: asked, answer: answer.text || "" });
      const shown = renderAnswer(answer, steps);
      waiting.replaceWith(shown);
      question.value = "";
    } catch (error) {
      waiting.replaceWith(failure(error));
    }
  } },
  el("label", { for: "question" }, "Question"), question,
  el("div", { class: "row" },
    el("button", { type: "submit" }, "Ask"),
    el("button", { type: "button", onclick: () => { turns.length = 0; conversation.replaceChildren(); } }, "New conversation")));
  main.append(el("h2", {}, "Ask"), el("p", { class: "muted" },
    "Answers quote the stored text; each citation opens its passage with the quoted bytes highlighted. Follow-up questions use the conversation so far."), form, conversation);
}

// -- Evidence inspector -----------------------------------------------------------------------

function itemRow(item, citable) {
  return el("tr", { "data-citable": String(citable) },
    el("td", {}, item.id), el("td", {}, item.documentName), el("td", {}, bytesLabel(item)),
    el("td", {}, item.retrievers.join(", ")), el("td", {}, item.score.toFixed(4)),
    el("td", { class: "excerpt" }, item.text.length > 240 ? item.text.slice(0, 239) + "…" : item.text));
}

function itemTable(caption, items, citable) {
  return el("table", {}, el("caption", {}, caption),
    el("thead", {}, el("tr", {}, ...["id", "document", "span", "found by", "score", "text"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, items.map((item) => itemRow(item, citable))));
}

function evidenceScreen(main) {
  const question = el("input", { id: "evidence-question", required: true });
  const out = el("div", { "aria-live": "polite" });
  const form = el("form", { onsubmit: async (event) => {
    event.preventDefault();
    out.replaceChildren(el("p", { role: "status" }, "Searching..."));
    try {
      const e = await api("POST", "/v1/memory/context", { scope: scope(), question: question.value });
      const v = e.verdict;
      out.replaceChildren(
        el("p", { class: `verdict verdict-${v.state}` }, `Verdict: ${v.state}${v.detail ? " (" + v.detail + ")" : ""}`),
        v.uncovered.length ? el("p", {}, `Uncovered words: ${v.uncovered.join(", ")}`) : null,
        v.matchedNames.length ? el("p", {}, `Stored names matched: ${v.matchedNames.join(", ")}`) : null,
        (v.respelled || []).length ? el("p", {}, `Read as close spellings: ${v.respelled.map((r) => `${r.asked} -> ${r.stored}`).join(", ")}`) : null,
        e.limitsReached.length ? el("p", {}, `Limits reached: ${e.limitsReached.join(", ")} (${e.omittedItems} left out)`) : null,
        e.skipped.length ? el("p", {}, `Skipped: ${e.skipped.join("; ")}`) : null,
        itemTable("Items (citable)", e.items, true),
        e.context.length ? itemTable("Context passages (never cited)", e.context, false) : null);
    } catch (error) {
      out.replaceChildren(failure(error));
    }
  } }, el("label", { for: "evidence-question" }, "Question"), question, el("button", { type: "submit" }, "Inspect"));
  main.append(el("h2", {}, "Evidence inspector"), form, out);
}

// -- Impact radar -----------------------------------------------------------------------------

const RING = 90;

function radar(result, onHop) {
  const rings = Math.max(1, ...result.affected.map((a) => a.hops));
  const size = 2 * RING * rings + 120;
  const centre = size / 2;
  const positions = { [result.entity.key]: [centre, centre] };
  const byRing = {};
  for (const a of result.affected) (byRing[a.hops] = byRing[a.hops] || []).push(a);
  for (const [hops, members] of Object.entries(byRing)) {
    members.forEach((a, i) => {
      const angle = (2 * Math.PI * i) / members.length - Math.PI / 2 + Number(hops) * 0.3;
      positions[a.entity.key] = [centre + RING * hops * Math.cos(angle), centre + RING * hops * Math.sin(angle)];
    });
  }
  const drawing = svg("svg", { viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": `Impact radar of ${result.entity.name}`, class: "radar" });
  for (let r = 1; r <= rings; r++) drawing.append(svg("circle", { cx: centre, cy: centre, r: RING * r, class: "ring" }));
  const drawn = new Set();
  for (const a of result.affected) {
    for (const hop of a.paths[0].hops) {
      const id = `${hop.start.key}>${hop.end.key}`;
      if (drawn.has(id) || !positions[hop.start.key] || !positions[hop.end.key]) continue;
      drawn.add(id);
      const [x1, y1] = positions[hop.start.key];
      const [x2, y2] = positions[hop.end.key];
      const label = `${hop.subject} ${hop.relation} ${hop.object}: ${hop.grade}${hop.reason ? " (" + hop.reason + ")" : ""}`;
      const line = svg("line", { x1, y1, x2, y2, class: `hop hop-${hop.grade}`, "data-grade": hop.grade,
        "data-from": hop.start.key, "data-to": hop.end.key, tabindex: 0, role: "button", "aria-label": label,
        onclick: () => onHop(hop), onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); onHop(hop); } } },
        svg("title", {}, label));
      drawing.append(line);
      if (hop.grade === "inferred") {
        drawing.append(svg("text", { x: (x1 + x2) / 2, y: (y1 + y2) / 2, class: "warning", "data-testid": "inferred-marker" }, "⚠"));
      }
    }
  }
  for (const [key, [x, y]] of Object.entries(positions)) {
    const a = result.affected.find((item) => item.entity.key === key);
    const name = a ? a.entity.name : result.entity.name;
    drawing.append(svg("circle", { cx: x, cy: y, r: key === result.entity.key ? 10 : 6, class: key === result.entity.key ? "centre" : `node node-${a.grade}` }));
    drawing.append(svg("text", { x: x + 9, y: y - 9, class: "label" }, name));
  }
  return drawing;
}

function impactScreen(main) {
  const entity = el("input", { id: "impact-entity", required: true });
  const direction = el("select", { id: "impact-direction" }, el("option", { value: "dependents" }, "dependents: who is affected"), el("option", { value: "dependencies" }, "dependencies: what it needs"));
  const hops = el("select", { id: "impact-hops" }, [1, 2, 3, 4, 5].map((n) => el("option", { value: n, selected: n === 3 }, String(n))));
  const out = el("div", { "aria-live": "polite" });
  async function run(name) {
    out.replaceChildren(el("p", { role: "status" }, "Walking..."));
    try {
      const result = await api("POST", "/v1/impact", { scope: scope(), entity: name, direction: direction.value, max_hops: Number(hops.value) });
      out.replaceChildren(...impactView(result, run));
    } catch (error) {
      out.replaceChildren(failure(error));
    }
  }
  const form = el("form", { onsubmit: (event) => { event.preventDefault(); run(entity.value); } },
    el("label", { for: "impact-entity" }, "Entity"), entity,
    el("label", { for: "impact-direction" }, "Direction"), direction,
    el("label", { for: "impact-hops" }, "Hops"), hops, el("button", { type: "submit" }, "Walk"));
  main.append(el("h2", {}, "Impact radar"), form, out);
}

function impactView(result, run) {
  if (result.status === "ambiguous") {
    return [el("p", { role: "alert" }, `"${result.asked}" names ${result.unresolved.candidates.length} entities; nothing is drawn until you pick one.`),
      el("div", { class: "candidates", "data-testid": "ambiguity" }, result.unresolved.candidates.map((c) =>
        el("section", { class: "candidate" }, el("h3", {}, `${c.name} (${c.type})`),
          el("p", {}, `${c.mentions} mention(s) in ${c.documents.join(", ")}`),
          el("button", { type: "button", onclick: () => run(c.key) }, `Pick ${c.key}`))))];
  }
  if (result.status === "unknown") {
    const close = result.unresolved.suggestions;
    return [el("p", { role: "alert" }, `No entity named "${result.asked}" is stored.${close.length ? " Close spellings: " + close.join(", ") : ""}`)];
  }
  const evidence = el("div", { class: "passage-slot", "aria-live": "polite" });
  const onHop = (hop) => {
    if (!hop.evidence) {
      evidence.replaceChildren(el("p", {}, `${hop.subject} ${hop.relation} ${hop.object}: ${hop.grade}; no sentence states it (${hop.reason || "no evidence"}).`));
      return;
    }
    showPassage(evidence, hop.evidence, hop.evidence.documentName);
  };
  const badges = el("p", { class: "badges" }, el("span", { class: "badge" }, `policy: ${result.policy.name}`),
    result.evaluationMode ? el("span", { class: "badge warning-badge" }, "evaluation mode") : null,
    result.truncated ? el("span", { class: "badge" }, `showing ${result.affected.length} of ${result.found}`) : null);
  const rows = result.affected.map((a) => el("tr", {}, el("td", {}, a.entity.name), el("td", {}, String(a.hops)), el("td", {}, a.grade),
    el("td", {}, a.paths[0].hops.map((h) => `${h.subject} ${h.relation} ${h.object}`).join(" / "))));
  return [
    el("h3", {}, `${result.entity.name} (${result.entity.type}): ${result.direction}, up to ${result.maxHops} hop(s)`),
    badges,
    auditLine(),
    result.affected.length ? radar(result, onHop) : el("p", {}, "Nothing found that the followed relations link to it."),
    el("p", { class: "legend" }, "Solid: supported by a sentence. Dashed with ⚠: inferred (no sentence states it). Grey: insufficient (negated, hypothetical, planned or ambiguous)."),
    evidence,
    el("table", {}, el("caption", {}, "Affected"), el("thead", {}, el("tr", {}, ["entity", "hops", "grade", "best path"].map((h) => el("th", { scope: "col" }, h)))), el("tbody", {}, rows)),
  ];
}

// -- the edge audit ---------------------------------------------------------------------------

function auditText(summary) {
  if (!summary.audited) return `Edge audit: no relation judged yet (${summary.stated} can be), so the binding error rate is not measured.`;
  const rate = (100 * summary.errorRate).toFixed(1);
  return `Edge audit: ${summary.wrong} of ${summary.audited} judged relations were wrong (${rate}%); the hops drawn here may be wrong as often.`;
}

function auditLine() {
  const line = el("p", { class: "audit-rate", "data-testid": "audit-rate" }, "Edge audit: reading...");
  api("GET", `/v1/audit/summary?${new URLSearchParams({ scope: scope() })}`)
    .then((summary) => { line.textContent = auditText(summary); })
    .catch((error) => line.replaceChildren(failure(error)));
  return line;
}

function auditSection() {
  const rate = auditLine();
  const list = el("ol", { class: "audit", "aria-live": "polite" });
  async function judge(relation, verdict, row) {
    try {
      const summary = await api("POST", "/v1/audit/verdicts", { scope: scope(), verdicts: [{ relation: relation.id, verdict }] });
      rate.textContent = auditText(summary);
      row.replaceChildren(el("p", { class: "muted" }, `${relation.source} ${relation.type} ${relation.target}: marked ${verdict}`));
    } catch (error) {
      row.append(failure(error));
    }
  }
  async function draw() {
    try {
      const data = await api("GET", `/v1/audit/sample?${new URLSearchParams({ scope: scope(), n: 10 })}`);
      list.replaceChildren(...data.relations.map((relation) => {
        const row = el("li", { "data-relation": relation.id });
        row.append(
          el("p", {}, `${relation.source} (${relation.sourceType}) ${relation.type} ${relation.target} (${relation.targetType})`,
            relation.polarity && relation.polarity !== "affirmed" ? ` [${relation.polarity}]` : "",
            relation.modality && relation.modality !== "actual" ? ` [${relation.modality}]` : ""),
          el("blockquote", {}, relation.quote),
          el("div", { class: "row" },
            el("button", { type: "button", class: "verdict-right", onclick: () => judge(relation, "right", row) }, "Right binding"),
            el("button", { type: "button", class: "verdict-wrong", onclick: () => judge(relation, "wrong", row) }, "Wrong binding")));
        return row;
      }));
      if (!data.relations.length) list.replaceChildren(el("li", {}, "Every stated relation has been judged."));
    } catch (error) {
      list.replaceChildren(failure(error));
    }
  }
  return [el("h3", {}, "Edge audit"),
    el("p", { class: "muted" }, "Does each quote really state this relation between these two entities? Your verdicts are kept in the scope; the error rate they measure is shown on every impact view."),
    rate, el("button", { type: "button", id: "audit-sample", onclick: draw }, "Sample 10 relations"), list];
}

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

function knowledgeScreen(main) {
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
          el("thead", {}, el("tr", {}, ["source", "relation", "target", "polarity", "modality", "quote"].map((h) => el("th", { scope: "col" }, h)))),
          el("tbody", {}, data.relations.map((r) => el("tr", {}, el("td", {}, r.source), el("td", {}, r.type), el("td", {}, r.target),
            el("td", {}, r.polarity || ""), el("td", {}, r.modality || ""), el("td", { class: "excerpt" }, r.quote || ""))))));
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

function healthScreen(main) {
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

// -- routing ----------------------------------------------------------------------------------

const SCREENS = { ask: askScreen, evidence: evidenceScreen, impact: impactScreen, knowledge: knowledgeScreen, health: healthScreen };
let timer = null;

function route() {
  const name = (location.hash || "#ask").slice(1);
  const screen = SCREENS[name] || askScreen;
  const main = document.getElementById("screen");
  if (timer) clearInterval(timer);
  main.replaceChildren();
  timer = screen(main) || null;
  for (const link of document.querySelectorAll("nav a")) {
    if (link.getAttribute("href") === "#" + name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  main.focus();
}

function sessionForm() {
  const form = document.getElementById("session");
  const token = document.getElementById("token");
  const scopeInput = document.getElementById("scope");
  const state = document.getElementById("session-state");
  scopeInput.value = scope();
  state.textContent = session.getItem("citegraph.token") ? "token set" : "no token yet";
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (token.value) session.setItem("citegraph.token", token.value);
    session.setItem("citegraph.scope", scopeInput.value || "default");
    token.value = "";
    state.textContent = `token set; scope ${scope()}`;
    route();
  });
}

window.addEventListener("hashchange", route);
sessionForm();
route();
