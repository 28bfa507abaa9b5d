// The impact radar, and the edge audit whose error rate every impact view shows.
import { api, el, failure, scope, showPassage, svg } from "./common.js";

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

export function impactScreen(main) {
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

export function auditSection() {
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

