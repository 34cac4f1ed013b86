// pi-ask's web page: the small script that sends each press to the server and puts back the
// page it answers with, follows the server's events (new asks, answers given elsewhere), and
// shows a preview or filters a long list. The form's behaviour is the server's (the one engine);
// nothing here decides anything.
"use strict";
(() => {
  const FRAGMENT = { "x-pi-ask-fragment": "1" };
  let seen = null;
  let ownPostAt = 0;
  let dirty = false;

  const main = () => document.getElementById("main");
  const page = () => main().firstElementChild;
  const say = (text) => { document.getElementById("status").textContent = text; };

  function put(html) {
    const before = page() && page().dataset.tab;
    main().innerHTML = html;
    dirty = false;
    prepare(before !== (page() && page().dataset.tab));
  }

  async function send(url, body) {
    ownPostAt = Date.now();
    try {
      const response = await fetch(url, { method: "POST", body, headers: FRAGMENT });
      put(await response.text());
    } catch (_) {
      say("The server did not answer; nothing was lost here. Try again.");
    }
  }

  async function reload() {
    try {
      const response = await fetch(location.pathname, { headers: FRAGMENT });
      if (response.ok) put(await response.text());
    } catch (_) { /* the event stream says when it is back */ }
  }

  function post(form, act) {
    const body = new URLSearchParams(new FormData(form));
    if (act) body.set("act", act);
    return send(form.getAttribute("action"), body);
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.method !== "post") return;
    event.preventDefault();
    const button = event.submitter;
    const url = (button && button.getAttribute("formaction")) || form.getAttribute("action");
    const body = new URLSearchParams(new FormData(form));
    if (button && button.name) body.set(button.name, button.value);
    send(url, body);
  });

  document.addEventListener("change", (event) => {
    const input = event.target;
    const act = input.dataset && input.dataset.act;
    if (!act) return;
    if (act === "own") {
      document.getElementById("own-text").focus();
      return;
    }
    post(input.form, act);
  });

  document.addEventListener("input", (event) => {
    if (event.target.matches("textarea")) dirty = true;
    if (event.target.matches(".filter-input")) filter(event.target.value);
  });

  document.addEventListener("keydown", (event) => {
    // Enter in the own answer's box uses it, as Enter does in the terminal's editor;
    // Shift+Enter starts a new line.
    if (event.key === "Enter" && !event.shiftKey && event.target.id === "own-text") {
      event.preventDefault();
      post(event.target.form, "own");
    }
  });

  function showPreview(option) {
    document.querySelectorAll("[data-preview]").forEach((preview) => {
      preview.hidden = preview.dataset.preview !== option;
    });
  }
  for (const kind of ["focusin", "pointerover"]) {
    document.addEventListener(kind, (event) => {
      const option = event.target.closest && event.target.closest("[data-option]");
      if (option) showPreview(option.dataset.option);
    });
  }

  function filter(query) {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    document.querySelectorAll(".option[data-option]").forEach((option) => {
      const text = option.querySelector("label").textContent.toLowerCase();
      option.hidden = !words.every((word) => text.includes(word));
    });
  }

  function prepare(moved) {
    const current = page();
    if (!current) return;
    if (moved) {
      const heading = current.querySelector("#prompt") || current.querySelector("h2")
        || current.querySelector("h1");
      if (heading) {
        heading.tabIndex = -1;
        heading.focus();
      }
    }
  }

  function follow() {
    const events = new EventSource("/events");
    events.addEventListener("changes", (event) => {
      const now = JSON.parse(event.data);
      document.title = document.title.replace(/^\(\d+\) /, "");
      if (now.waiting > 0) document.title = `(${now.waiting}) ${document.title}`;
      const before = seen;
      seen = now;
      if (!before) return;
      if (now.waiting > before.waiting && now.list !== before.list) {
        say(`A new question is waiting: ${now.newest || ""}`);
        if (window.Notification && Notification.permission === "granted" && document.hidden) {
          new Notification("pi-ask: a question is waiting", { body: now.newest || "" });
        }
      }
      const current = page();
      if (!current) return;
      const kind = current.dataset.page;
      if (kind === "list" && now.list !== before.list) reload();
      if (kind === "form") {
        const id = current.dataset.ask;
        if ((now.asks[id] || 0) === (before.asks[id] || 0)) return;
        if (Date.now() - ownPostAt < 1000) return;
        if (dirty) {
          say("This ask changed in another window; save what you typed to see it.");
          return;
        }
        reload();
      }
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    prepare(false);
    follow();
    document.addEventListener("click", () => {
      if (window.Notification && Notification.permission === "default") {
        Notification.requestPermission();
      }
    }, { once: true });
  });
})();
