// The Ask screen (with the answer's steps streamed) and the evidence inspector.
import { api, authHeaders, bytesLabel, decoder, el, failure, httpError, scope, showPassage } from "./common.js";

// -- Ask --------------------------------------------------------------------------------------

const turns = [];

// POST /v1/answers/stream: server-sent events read from the response body (EventSource cannot
// send the token), each step handed to `onStep` as it comes, the answer returned at the end.
async function streamAnswer(body, onStep) {
  const response = await fetch("/v1/answers/stream", {
    method: "POST",
    headers: authHeaders({ "Content-Type": "application/json" }),
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await httpError(response);
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

export function askScreen(main) {
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

export function evidenceScreen(main) {
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

