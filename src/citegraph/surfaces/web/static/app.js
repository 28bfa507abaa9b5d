// citegraph's web UI: the project's own code, no library. Every piece of stored text is put
// on the page as text (textContent), never as markup. The token lives in sessionStorage and
// goes in the Authorization header, never in a URL.
import { scope, session } from "./common.js";
import { askScreen, evidenceScreen } from "./ask.js";
import { impactScreen } from "./impact.js";
import { healthScreen, knowledgeScreen } from "./knowledge.js";

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
