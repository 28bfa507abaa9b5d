// What every screen of citegraph's web UI shares: the project's own code, no library. Every
// piece of stored text is put on the page as text (textContent), never as markup. The token
// lives in sessionStorage and goes in the Authorization header, never in a URL.

export const session = window.sessionStorage;
const encoder = new TextEncoder();
export const decoder = new TextDecoder();
const SVG = "http://www.w3.org/2000/svg";

export function el(tag, attrs, ...children) {
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

export function svg(tag, attrs, ...children) {
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

export function scope() {
  return session.getItem("citegraph.scope") || "default";
}

// The error a failed response carries ({ok: false, error: {code, message}}), as an Error.
export async function httpError(response) {
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  const error = new Error((data && data.error && data.error.message) || response.statusText);
  error.status = response.status;
  error.code = data && data.error && data.error.code;
  return error;
}

export function authHeaders(extra) {
  return { Authorization: "Bearer " + (session.getItem("citegraph.token") || ""), ...extra };
}

export async function api(method, path, body) {
  const headers = authHeaders(body === undefined ? {} : { "Content-Type": "application/json" });
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // /v1/health answers 503 with its body when the graph is down: that is a result to show.
  if (!response.ok && !(path === "/v1/health" && response.status === 503)) {
    throw await httpError(response);
  }
  return response.json();
}

export function failure(error) {
  const code = error.code ? ` (${error.status} ${error.code})` : ` (${error.status || "network"})`;
  return el("p", { class: "error", role: "alert" }, `${error.message}${code}`);
}

export function bytesLabel(c) {
  const page = c.page ? (c.endPage && c.endPage !== c.page ? `, pages ${c.page}-${c.endPage}` : `, page ${c.page}`) : "";
  return `bytes ${c.startByte}-${c.endByte}${page}`;
}

// -- a citation shown in its passage, the quoted bytes highlighted -------------------------

export async function showPassage(target, citation, documentName) {
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

